package reports

import (
	"bytes"
	"errors"
	"testing"
	"time"
)

// roundsCases are rounds cases of a regression run as regress hands them
// to the reports: a replayed run beyond the bound, a batch within it, a
// batch expected within it that is not, a run that never reached L and a
// search that failed.
func roundsCases() []*RegressCase {
	return []*RegressCase{
		{Name: "lossy run beyond 4n", Spec: "kl-ddhl", Expected: [][2]string{{"rounds", "violated"}}, HasFigures: true,
			Elapsed: 3 * time.Millisecond, PropertyDiffs: []string{""},
			Rounds: &RegressRounds{Bound: "4n", BoundRounds: 12, Run: 71469, Runs: 1, MostRounds: 18, Beyond: 1,
				Slowest: 71469, SlowestRounds: 18, SlowestReached: true, Verdict: "violated"}},
		{Name: "reliable batch within 4n", Spec: "kl-ddhl", Expected: [][2]string{{"rounds", "within-sampled"}},
			Elapsed: 580 * time.Millisecond, PropertyDiffs: []string{""},
			Rounds: &RegressRounds{Bound: "4n", BoundRounds: 12, Run: -1, Runs: 5000, Overflows: 2, MostRounds: 9,
				Slowest: 2052, SlowestRounds: 9, SlowestReached: true, Verdict: "within-sampled"}},
		{Name: "batch expected within 12", Spec: "kl-ddhl", Expected: [][2]string{{"rounds", "within-sampled"}}, HasFigures: true,
			Elapsed:       1200 * time.Millisecond,
			PropertyDiffs: []string{"rounds: expected within-sampled, got violated (20000 runs: max 16 rounds to L, 10 beyond; slowest run 2129: 16 rounds to L)"},
			FigureDiffs:   []string{"most_rounds: expected 11, got 16", "beyond_bound: expected 0, got 10"},
			Rounds: &RegressRounds{Bound: "12", BoundRounds: 12, Run: -1, Runs: 20000, MostRounds: 16, Beyond: 10,
				Slowest: 2129, SlowestRounds: 16, SlowestReached: true, Verdict: "violated"}},
		{Name: "run not at L", Spec: "kl-dhv", Expected: [][2]string{{"rounds", "violated"}},
			Elapsed: 6 * time.Millisecond, PropertyDiffs: []string{""},
			Rounds: &RegressRounds{Bound: "5n", BoundRounds: 15, Run: 7400, Runs: 1, MostRounds: -1, Beyond: 1, NotReached: 1,
				Slowest: 7400, SlowestRounds: 150, Verdict: "violated"}},
		{Name: "search failed", Spec: "kl-ddhl", Expected: [][2]string{{"rounds", "violated"}},
			Err: errors.New("rounds: kl-ddhl: process 1 still has a protocol action enabled after 65536 steps of one action")},
	}
}

// TestRegressRoundsGolden: the table and the JUnit report of rounds cases.
func TestRegressRoundsGolden(t *testing.T) {
	var table, junit bytes.Buffer
	failed, err := WriteRegressTable(&table, roundsCases())
	if err != nil {
		t.Fatal(err)
	}
	if failed != 2 {
		t.Errorf("%d failed, want 2", failed)
	}
	golden(t, "regress_rounds.txt.golden", table.Bytes())
	if err := WriteJUnit(&junit, roundsCases()); err != nil {
		t.Fatal(err)
	}
	golden(t, "regress_rounds.xml.golden", junit.Bytes())
}
