package cli

import (
	"context"
	"os"
	"testing"
)

// TestProjectManifestValid checks that the project's own gate,
// specs/regress.yaml, parses and that every case plans (nothing runs:
// .ci/run runs it).
func TestProjectManifestValid(t *testing.T) {
	const path = "../../../specs/regress.yaml"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cases, err := parseManifest(context.Background(), path, data)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
	for i, c := range cases {
		if c.req != nil {
			c.req.Workers = 1
		}
		if err := c.validate(); err != nil {
			t.Errorf("cases[%d] (%s): %v", i, c.name, err)
		}
	}
}
