package syntax

import (
	"os"
	"testing"
)

func TestParseDijkstra(t *testing.T) {
	src, err := os.ReadFile("../../specs/ring/dijkstra.ring")
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse("dijkstra.ring", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Decls) != 16 {
		t.Fatalf("%d declarations", len(f.Decls))
	}
}
