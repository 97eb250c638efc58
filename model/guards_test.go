package model_test

import (
	"reflect"
	"testing"

	"github.com/ringcheck/ringcheck/model"
)

// TestGuards: on the flip ring, each action's guard is its value in the
// configuration, per process, in declaration order (set, copy).
func TestGuards(t *testing.T) {
	sys, x := flipRing(t, 3, model.Central, 1, false)
	for _, tc := range []struct {
		xs   []int
		want [][]bool
	}{
		{[]int{0, 0, 0}, [][]bool{{true, false}, {true, false}, {true, false}}},
		{[]int{1, 0, 0}, [][]bool{{false, true}, {true, true}, {true, false}}},
		{[]int{1, 1, 1}, [][]bool{{false, false}, {false, false}, {false, false}}},
		{[]int{0, 1, 1}, [][]bool{{true, true}, {false, true}, {false, false}}},
	} {
		st := sys.NewState()
		for p, v := range tc.xs {
			st.Set(p, x, v)
		}
		got, err := sys.NewExpander().Guards(st)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("x=%v: guards %v, want %v", tc.xs, got, tc.want)
		}
	}
}
