package cli

import (
	"context"
	"strings"
	"testing"
)

// FuzzParseManifest: the manifest parser never panics, every error it
// returns is one line that names the manifest, and every manifest it
// accepts has cases with a spec and expectations (a check's, or a rounds
// search's).
func FuzzParseManifest(f *testing.F) {
	f.Add([]byte("cases:\n  - spec: dijkstra\n    params: {n: 3, K: 3}\n    expect:\n      safety: holds\n"))
	f.Add([]byte("cases:\n  - spec: kl-naive\n    expect: {deadlock: violated}\n    states: 5\n    budget: 1s\n"))
	f.Add([]byte("cases: []\n"))
	f.Add([]byte("cases:\n  - spec: dijkstra\n    expect:\n      deadlok: holds\n"))
	f.Add([]byte("\tnot: [yaml"))
	f.Add([]byte("cases:\n  - &c {spec: dijkstra, expect: {safety: holds}}\n  - *c\n  - {<<: *c, max_states: 1.5}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cases, err := parseManifest(context.Background(), "m.yaml", data)
		if err != nil {
			msg := err.Error()
			if strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "m.yaml") {
				t.Fatalf("error is not one line naming the manifest: %q", msg)
			}
			return
		}
		for i, c := range cases {
			if c.spec == "" || len(c.expect) == 0 && c.search == nil {
				t.Fatalf("case %d accepted without a spec or expectations: %+v", i, c)
			}
		}
	})
}
