package symbolic_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/symbolic"
)

// TestRefusesSequentialBlocks: a sequential block (do { ... }), with or
// without local arrays, is out of the engine's reach, refused by
// Supports (so that auto runs the explicit engine) and Encode with
// ErrUnsupported at its place.
func TestRefusesSequentialBlocks(t *testing.T) {
	for name, action := range map[string]string{
		"a block":               "do { x := x[pred]; x := x }",
		"a block's local array": "do { let t[0..1]: 0..3; t[1] := x[pred]; x := t[1] }",
	} {
		t.Run(name, func(t *testing.T) {
			src := "spec s \"s\"\ntopology ring(3)\nvar x: 0..3\nprocess all { action a: x != x[pred] -> " + action + " }\nlegitimate: forall p: x[p] == x[0]\n"
			f, err := lang.Parse("s.ring", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			spec, err := f.Instance(nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := symbolic.Supports(spec, symbolic.Options{}); !errors.Is(err, symbolic.ErrUnsupported) {
				t.Fatalf("Supports: %v, want ErrUnsupported", err)
			}
			_, err = symbolic.Encode(context.Background(), spec, symbolic.Options{})
			if !errors.Is(err, symbolic.ErrUnsupported) || !strings.Contains(err.Error(), "s.ring:4:41: action a runs a sequential block (do { ... })") {
				t.Fatalf("Encode: %v, want ErrUnsupported at the block", err)
			}
		})
	}
}

// TestRefusesRunReceives: a run receive (recv run ...) is out of the
// engine's reach, refused with ErrUnsupported at its action.
func TestRefusesRunReceives(t *testing.T) {
	src := "spec s \"s\"\ntopology ring(2)\nmessage T(more: bool)\nchannels capacity 1\nvar x: 0..1\nprocess all { action a: recv run T while more from pred -> x := 1 }\nlegitimate: true\n"
	f, err := lang.Parse("s.ring", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := f.Instance(nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = symbolic.Encode(context.Background(), spec, symbolic.Options{})
	if !errors.Is(err, symbolic.ErrUnsupported) || !strings.Contains(err.Error(), "s.ring:6:15: action a receives a run (recv run ...)") {
		t.Fatalf("Encode: %v, want ErrUnsupported at the action", err)
	}
}
