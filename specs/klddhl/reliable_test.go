package klddhl_test

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// TestReliableStartsAreTheLossyOnes: each reliable-*.json start file is the
// first configuration of the lossy (or blocking) counterexample of the same
// name, under the parameters of reliable links with the same counter
// domain (Cmax=32, counters=10), so that the regression manifest checks
// convergence from the very configurations where the bounded links fail.
func TestReliableStartsAreTheLossyOnes(t *testing.T) {
	type trace struct {
		Params map[string]int    `json:"params"`
		States []json.RawMessage `json:"states"`
	}
	read := func(path string) trace {
		t.Helper()
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var tr trace
		if err := json.Unmarshal(src, &tr); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if len(tr.States) == 0 {
			t.Fatalf("%s: no state", path)
		}
		return tr
	}
	for _, name := range []string{"no-convergence-n2", "no-convergence-n2-resends", "no-convergence-n2-counter-resends", "dead-n2-block"} {
		lossy, reliable := read("testdata/"+name+".json"), read("testdata/reliable-"+name+".json")
		if len(reliable.States) != 1 {
			t.Errorf("%s: %d states, want the start alone", name, len(reliable.States))
		}
		var a, b any
		if err := json.Unmarshal(lossy.States[0], &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(reliable.States[0], &b); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: the reliable start is not the lossy trace's first configuration", name)
		}
		want := map[string]int{}
		for k, v := range lossy.Params {
			want[k] = v
		}
		want["Cmax"], want["counters"] = 32, 10
		if !reflect.DeepEqual(reliable.Params, want) {
			t.Errorf("%s: parameters %v, want %v", name, reliable.Params, want)
		}
	}
}
