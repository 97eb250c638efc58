package cli

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe to read while a command writes it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestServe: serve listens on the loopback address given, prints its URL,
// serves the page and the API over the spec or the trace, and returns 0
// once its context ends (Ctrl-C).
func TestServe(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		has  string // in /api/model's answer
	}{
		{"spec", []string{"serve", "dijkstra", "-p", "n=4", "--addr", "127.0.0.1:0"}, `"values":"K=5 n=4"`},
		{"trace", []string{"serve", "--trace", "../../../explorer/testdata/kl-pusher-starvation.json", "--addr", "127.0.0.1:0"}, `"title":"starvation counterexample for kl-pusher`},
		{"sweep", []string{"serve", "--sweep", "../../../explorer/testdata/dijkstra-sweep.json", "--addr", "127.0.0.1:0"}, `"sweep":{"spec":"dijkstra","param":"n"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var stdout, stderr syncBuffer
			code := make(chan int, 1)
			go func() { code <- Run(ctx, tc.args, &stdout, &stderr) }()
			urlRE := regexp.MustCompile(`^ringcheck explorer: (http://127\.0\.0\.1:\d+/) \(Ctrl-C stops it\)\n`)
			var url string
			for deadline := time.Now().Add(20 * time.Second); url == "" && time.Now().Before(deadline); {
				select {
				case c := <-code:
					t.Fatalf("serve exited with %d before serving: %s", c, stderr.String())
				case <-time.After(20 * time.Millisecond):
				}
				if m := urlRE.FindStringSubmatch(stdout.String()); m != nil {
					url = m[1]
				}
			}
			if url == "" {
				t.Fatalf("no URL printed: %q", stdout.String())
			}
			for path, want := range map[string]string{"": `<script src="app.js">`, "api/model": tc.has} {
				resp, err := http.Get(url + path)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), want) {
					t.Errorf("GET /%s: %d, want it to hold %q:\n%.300s", path, resp.StatusCode, want, body)
				}
			}
			cancel()
			select {
			case c := <-code:
				if c != 0 {
					t.Errorf("serve exited with %d after Ctrl-C: %s", c, stderr.String())
				}
			case <-time.After(10 * time.Second):
				t.Fatal("serve did not stop after Ctrl-C")
			}
		})
	}
}
