package model_test

import (
	"fmt"
	"testing"

	"github.com/ringcheck/ringcheck/model"
)

// TestLineLinks: a line links each process with its neighbours in both
// directions, and its ends, 0 and N-1, with one neighbour each.
func TestLineLinks(t *testing.T) {
	top := model.Topology{Kind: model.Line, N: 4}
	if got, want := fmt.Sprint(top.Links()), "[[0 1] [1 0] [1 2] [2 1] [2 3] [3 2]]"; got != want {
		t.Errorf("links %s, want %s", got, want)
	}
	if top.Linked(3, 0) || top.Linked(0, 3) {
		t.Error("the ends of a line are linked")
	}
	if top.Kind.String() != "line" {
		t.Errorf("a line is named %q", top.Kind)
	}
	if one := (model.Topology{Kind: model.Line, N: 1}); len(one.Links()) != 0 {
		t.Errorf("a line of one process has links %v", one.Links())
	}
}
