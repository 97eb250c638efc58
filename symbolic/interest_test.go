package symbolic_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/symbolic"
)

// TestNarrowedSumsEnumerateL compares the enumeration of L derived from
// testdata/sums.ring, whose legitimacy predicates add process variables
// (negative terms included), counts of messages and fields of the
// messages of every channel, and compare the totals by ==, <, >=, !=, a
// difference and a conditional with a count, with a sweep of every
// configuration: the same configurations, each once. The engine narrows
// these sums to the values their comparison tells apart (interest.go).
func TestNarrowedSumsEnumerateL(t *testing.T) {
	f, err := lang.Read("testdata/sums.ring")
	if err != nil {
		t.Fatal(err)
	}
	for form := range 5 {
		for _, values := range []map[string]int{
			{"n": 2, "Cap": 1, "W": 2},
			{"n": 2, "Cap": 1, "W": 4},
			{"n": 3, "Cap": 1, "W": 3},
		} {
			values["form"] = form
			t.Run(fmt.Sprint(values), func(t *testing.T) {
				sys, err := f.Build(values)
				if err != nil {
					t.Fatal(err)
				}
				enumerationIsL(t, sys)
			})
		}
	}
}

// BenchmarkLegitimateSums builds the BDD of L of specs whose L sums
// message counts and fields over channels and processes, the sums the
// evaluator narrows to the values their comparison can tell apart
// (interest.go): kl-dhv n=2 L=2 K=1 and testdata/sums.ring n=3 Cap=6
// (about 5 s each; over 60 s each without the narrowing):
//
//	go test ./symbolic -run '^$' -bench LegitimateSums -benchtime 1x
func BenchmarkLegitimateSums(b *testing.B) {
	for _, c := range []struct {
		file   string
		values map[string]int
	}{
		{"../specs/ring/kl-dhv.ring", map[string]int{"n": 2, "L": 2, "K": 1, "MaxSeq": 1}},
		{"testdata/sums.ring", map[string]int{"n": 3, "Cap": 6, "W": 2}},
	} {
		b.Run(fmt.Sprint(c.file, c.values), func(b *testing.B) {
			f, err := lang.Read(c.file)
			if err != nil {
				b.Fatal(err)
			}
			inst, err := f.Instance(c.values)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				l, err := symbolic.EncodeLegitimate(context.Background(), inst, nil)
				if err != nil {
					b.Fatal(err)
				}
				if l.Count().Sign() == 0 {
					b.Fatal("L is empty")
				}
			}
		})
	}
}
