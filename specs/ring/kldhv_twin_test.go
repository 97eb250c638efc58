package ring_test

import (
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
)

// klDhv translates kl-dhv.ring's names into the Go spec kl-dhv's: the
// file's actions A_c1_stale and A_c4_dup are the Go spec's A_c1-stale and
// A_c4-dup (a name of the language has no "-"); variables keep their names.
var klDhv = naming{
	vars: func(name string) string { return name },
	label: func(_ *model.System, label string) string {
		return strings.NewReplacer("A_c1_stale", "A_c1-stale", "A_c4_dup", "A_c4-dup").Replace(label)
	},
}

func TestKlDhvTwinTakesTheSameSteps(t *testing.T) {
	for _, values := range []specs.Values{
		// The Go spec's defaults.
		{"n": 3, "L": 2, "K": 2, "Cmax": 0, "MaxSeq": 1, "MaxVc": 0, "staycs": 0, "fix": 0, "ctop": 0},
		// Channels small enough to drop sends, the repairs and Root's
		// counters up to ℓ+1.
		{"n": 2, "L": 2, "K": 1, "Cmax": 3, "MaxSeq": 3, "MaxVc": 1, "staycs": 1, "fix": 1, "ctop": 1},
		{"n": 3, "L": 3, "K": 2, "Cmax": 4, "MaxSeq": 2, "MaxVc": 2, "staycs": 0, "fix": 2, "ctop": 0},
		{"n": 4, "L": 2, "K": 2, "Cmax": 3, "MaxSeq": 5, "MaxVc": 0, "staycs": 0, "fix": 0, "ctop": 1},
	} {
		t.Run("", func(t *testing.T) { testSameSteps(t, "kl-dhv.ring", "kl-dhv", values, 3, 2000, &klDhv) })
	}
}

func TestKlDhvTwin(t *testing.T) {
	t.Parallel()
	testTwin(t, twin{
		file: "kl-dhv.ring", spec: "kl-dhv",
		instances: []specs.Values{
			// The instance of the claims and of specs/regress.yaml, with
			// each of its readings and repairs.
			{"n": 3, "L": 2, "K": 2},
			{"n": 3, "L": 2, "K": 2, "ctop": 1},
			{"n": 3, "L": 2, "K": 2, "fix": 1},
			{"n": 2, "L": 1, "K": 1, "staycs": 1, "fix": 2},
			{"n": 2, "L": 2, "K": 2, "Cmax": 3},
			// Those of the Go spec's tests: single-unit requests, and
			// the repairs on two processes.
			{"n": 3, "L": 2, "K": 1},
			{"n": 3, "L": 1, "K": 1},
			{"n": 2, "L": 2, "K": 2, "fix": 2},
		},
		fromInit: []invariants.Property{invariants.Safety, invariants.Deadlock, invariants.Starvation},
		fairness: invariants.WeakFairness,
	})
}

// TestKlDhvTwinLegitimacy compares the two legitimacy predicates on the Go
// spec's enumeration of its legitimate configurations (where random
// configurations, almost never legitimate, do not reach) and on every
// configuration one change away from one of them: a variable or a
// message's field one higher, one of Root's variables one higher and
// another variable one lower, or a channel's head message lost or moved to
// the head of another channel.
func TestKlDhvTwinLegitimacy(t *testing.T) {
	t.Parallel()
	for _, values := range []specs.Values{
		{"n": 2, "L": 2, "K": 2, "Cmax": 0, "MaxSeq": 1, "MaxVc": 0, "staycs": 0, "fix": 0, "ctop": 0},
		{"n": 3, "L": 1, "K": 1, "Cmax": 0, "MaxSeq": 2, "MaxVc": 0, "staycs": 0, "fix": 0, "ctop": 1},
	} {
		gsys, rsys := twinSystems(t, "kl-dhv.ring", "kl-dhv", values)
		compared, legit := 0, 0
		compare := func(snap model.Snapshot) bool {
			gst, err := gsys.Encode(snap)
			if err != nil {
				return false // a value outside its domain
			}
			rst, err := rsys.Encode(snap)
			if err != nil {
				t.Fatalf("%v: %v", snap, err)
			}
			g, r := gsys.Legitimate.Holds(gst), rsys.Legitimate.Holds(rst)
			if g != r {
				t.Fatalf("%v %v: L is %v in Go, %v in the file", values, snap, g, r)
			}
			compared++
			if g {
				legit++
			}
			return g
		}
		configs := 0
		gsys.LegitimateConfigurations(gsys, func(st *model.State) bool {
			configs++
			snap := gsys.Decode(st)
			if !compare(snap) {
				t.Fatalf("%v %v: enumerated, not legitimate", values, snap)
			}
			for p, pv := range snap.Processes {
				for v := range pv.Vars {
					if pv.Vars[v].Enum {
						continue
					}
					c := gsys.Decode(st)
					c.Processes[p].Vars[v].Int++
					compare(c)
				}
			}
			// One variable one higher and another one lower: the counts
			// kept, what only the conditions of a run tell apart.
			for v := range snap.Processes[0].Vars {
				for p, pv := range snap.Processes {
					for w := range pv.Vars {
						if pv.Vars[w].Enum || snap.Processes[0].Vars[v].Enum || p == 0 && v == w {
							continue
						}
						c := gsys.Decode(st)
						c.Processes[0].Vars[v].Int++
						c.Processes[p].Vars[w].Int--
						compare(c)
					}
				}
			}
			for ch, cv := range snap.Channels {
				if len(cv.Messages) == 0 {
					continue
				}
				c := gsys.Decode(st)
				c.Channels[ch].Messages = c.Channels[ch].Messages[1:]
				compare(c)
				for to := range snap.Channels {
					if to != ch {
						c := gsys.Decode(st)
						c.Channels[to].Messages = append([]model.MessageView{c.Channels[ch].Messages[0]}, c.Channels[to].Messages...)
						c.Channels[ch].Messages = c.Channels[ch].Messages[1:]
						compare(c)
					}
				}
				for m, mv := range cv.Messages {
					for f := range mv.Fields {
						c := gsys.Decode(st)
						c.Channels[ch].Messages[m].Fields[f].Int++
						compare(c)
					}
				}
			}
			return configs < 2500
		})
		if compared <= legit {
			t.Errorf("%v: %d configurations compared, all legitimate", values, compared)
		}
		t.Logf("%v: %d legitimate configurations, %d configurations compared, %d legitimate", values, configs, compared, legit)
	}
}
