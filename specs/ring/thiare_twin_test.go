package ring_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
)

// thiareNames translates thiare.ring's names into the Go spec thiare's:
// the file's state[r], seq[r] and resent[r] are the Go spec's state, seq
// and resent with one resource and state[r], seq[r], resent[r] with two;
// its slot q[r][k] the Go spec's qk or q[r]k; its request(r=R),
// leave(r=R) and timeout(r=R) the Go spec's request, leave and timeout,
// or request[R], leave[R] and timeout[R]. The file's resent, which the Go
// spec declares only with resend=1, and its invariants priority_order
// (order=1 only) and seq_window (requests=0 only) are absent otherwise.
// The queue slots, integers in the file, take the Go spec's labels.
func thiareNames(values specs.Values) *naming {
	nres, resend := values["resources"], values["resend"]
	sfx := func(r int) string {
		if nres == 1 {
			return ""
		}
		return fmt.Sprintf("[%d]", r)
	}
	return &naming{
		vars: func(name string) string {
			var base string
			var r, k int
			fields := strings.Fields(strings.NewReplacer("[", " ", "]", " ").Replace(name))
			switch len(fields) {
			case 3:
				if _, err := fmt.Sscanf(strings.Join(fields, " "), "%s %d %d", &base, &r, &k); err != nil {
					return name
				}
				return fmt.Sprintf("%s%s%d", base, sfx(r), k)
			case 2:
				if _, err := fmt.Sscanf(strings.Join(fields, " "), "%s %d", &base, &r); err != nil {
					return name
				}
				if base == "resent" && resend == 0 {
					return ""
				}
				return base + sfx(r)
			}
			if name == "qover" {
				return ""
			}
			return name
		},
		label: func(_ *model.System, label string) string {
			at := strings.Index(label, "(r=")
			if at < 0 {
				return label
			}
			var r int
			if _, err := fmt.Sscanf(label[at:], "(r=%d)", &r); err != nil {
				return label
			}
			return label[:at] + sfx(r)
		},
		// Without recurring requests, H = n·R makes the Go spec's request
		// overflow H's domain, and a waiting node's SeqNum 0 its token's
		// field, both of which it encodes as other values; no execution
		// reaches either (H counts the requests made, a waiting node's
		// SeqNum is H+1): H is kept below n·R and such a SeqNum set to 1.
		// A random queue is nearly always full, where the Go spec's
		// insertion fails, or, with recurring requests, reports a range
		// fault of its last slot where the file's is qover's: the last
		// slots of the even processes are emptied, of every process with
		// recurring requests.
		repair: func(snap model.Snapshot) model.Snapshot {
			n, rq, f := values["n"], values["requests"], 1+values["resend"]
			last := fmt.Sprint((n-1)*max(rq, 1)*f - 1)
			for p, pv := range snap.Processes {
				idle := map[string]bool{}
				for _, v := range pv.Vars {
					if strings.HasPrefix(v.Name, "state") {
						idle[strings.TrimPrefix(v.Name, "state")] = v.Text == "idle"
					}
				}
				for i, v := range pv.Vars {
					switch {
					case rq > 0 && v.Name == "H" && v.Int >= n*rq:
						pv.Vars[i].Int = n*rq - 1
						pv.Vars[i].Text = fmt.Sprint(pv.Vars[i].Int)
					case rq > 0 && strings.HasPrefix(v.Name, "seq") && v.Int == 0 && !idle[strings.TrimPrefix(v.Name, "seq")]:
						pv.Vars[i].Int, pv.Vars[i].Text = 1, "1"
					case (rq == 0 || p%2 == 0) && (v.Name == "q"+last || strings.HasPrefix(v.Name, "q[") && strings.HasSuffix(v.Name, "]"+last)):
						pv.Vars[i].Int, pv.Vars[i].Text = 0, "-"
					}
				}
			}
			return snap
		},
		// A full queue: the Go spec's insertion writes -1 into its last
		// slot, the file's sets qover to 1.
		rangeErrors: true,
		absent: func(values specs.Values) []string {
			var out []string
			if values["order"] == 0 {
				out = append(out, "priority_order")
			}
			if values["requests"] > 0 {
				out = append(out, "seq_window")
			}
			return out
		},
		labels: true,
	}
}

// thiareValues is the Go spec's defaults with over set.
func thiareValues(over specs.Values) specs.Values {
	v := specs.Values{"n": 3, "requests": 2, "window": 0, "resources": 1, "resend": 0, "replace": 1, "order": 1, "Cmax": 0}
	for k, x := range over {
		v[k] = x
	}
	return v
}

func TestThiareTwinTakesTheSameSteps(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		values specs.Values
		// fill is the channels' fill, samples the configurations compared.
		fill, samples int
	}{
		// The Go spec's defaults; channels filled below their capacity
		// (6), so that leave's sends of up to 4 tokens fit.
		{thiareValues(nil), 2, 3000},
		// Two resources, Rule 4's timeout, the proof's forwarding.
		{thiareValues(specs.Values{"n": 2, "requests": 1, "resources": 2, "resend": 1, "replace": 0, "order": 0}), 2, 3000},
		// Recurring requests, SeqNums modulo 7.
		{thiareValues(specs.Values{"requests": 0, "window": 2}), 1, 3000},
		// Recurring requests with Rule 4, SeqNums modulo 5.
		{thiareValues(specs.Values{"n": 2, "requests": 0, "window": 1, "resend": 1}), 2, 3000},
		// Up to three tokens in a queue, whose SeqNums modulo 5 need not
		// be in any order.
		{thiareValues(specs.Values{"requests": 0, "window": 1, "resend": 1}), 2, 3000},
		// The largest queues with recurring requests: 8 slots for each of
		// two resources, with Rule 4 (fewer samples: each has about 30
		// steps over 16 slots and 5 channels).
		{thiareValues(specs.Values{"n": 5, "requests": 0, "window": 1, "resend": 1, "resources": 2}), 2, 400},
	} {
		t.Run(fmt.Sprint(tc.values), func(t *testing.T) {
			testSameSteps(t, "thiare.ring", "thiare", tc.values, tc.fill, tc.samples, thiareNames(tc.values))
		})
	}
}

func TestThiareTwin(t *testing.T) {
	t.Parallel()
	props := []invariants.Property{invariants.Safety, invariants.Deadlock, invariants.Starvation}
	testTwin(t, twin{
		file: "thiare.ring", spec: "thiare",
		instances: []specs.Values{
			thiareValues(specs.Values{"n": 2, "requests": 1}),
			thiareValues(nil),
			thiareValues(specs.Values{"requests": 1, "resources": 2}),
			thiareValues(specs.Values{"n": 5, "requests": 1}),
			thiareValues(specs.Values{"n": 5, "requests": 1, "replace": 0}),
			thiareValues(specs.Values{"n": 2, "requests": 2, "resend": 1, "order": 0}),
		},
		fromInit: props,
		fairness: invariants.WeakFairness,
	})
	testTwin(t, twin{
		file: "thiare.ring", spec: "thiare",
		instances: []specs.Values{
			thiareValues(specs.Values{"n": 2, "requests": 0}),
			thiareValues(specs.Values{"n": 2, "requests": 0, "window": 1}),
			thiareValues(specs.Values{"requests": 0, "window": 2}),
			thiareValues(specs.Values{"n": 2, "requests": 0, "resend": 1}),
		},
		fromInit: props,
		fairness: invariants.WeakActionFairness,
	})
}
