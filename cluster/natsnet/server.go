package natsnet

import (
	"errors"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// MaxPayload is the largest message the embedded server takes; larger
// ones go in fragments.
const MaxPayload = 8 << 20

// StartServer starts a NATS server in the process, on a random port of
// the loopback interface, with no disk and no JetStream, and returns it
// with the URL its clients connect to. Shutdown stops it.
func StartServer() (*server.Server, string, error) {
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, NoLog: true, NoSigs: true, MaxPayload: MaxPayload})
	if err != nil {
		return nil, "", err
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		return nil, "", errors.New("the embedded NATS server did not start within 10s")
	}
	return s, s.ClientURL(), nil
}
