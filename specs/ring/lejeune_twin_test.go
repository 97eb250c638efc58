package ring_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
)

// TestLejeuneTwin compares lejeune.ring with the Go spec lejeune on the
// instances of its tests and of the regression manifest that run in
// seconds: every parameter (loans, the reading of lines 260–261, strict,
// two requests, recurring requests with their fairness), safety, deadlock
// and starvation from the initial configuration. Not Cmax below its
// default: after a send to a full channel (a safety violation), a
// receive of the aggregate whose message was lost differs (the Go spec
// consumes the next aggregate's first message and flags it, the file's
// run ends before it).
func TestLejeuneTwin(t *testing.T) {
	t.Parallel()
	props := []invariants.Property{invariants.Safety, invariants.Deadlock, invariants.Starvation}
	testTwin(t, twin{
		file: "lejeune.ring", spec: "lejeune",
		instances: []specs.Values{
			{"N": 2, "M": 1, "requests": 1}, {"N": 2, "M": 2, "requests": 2},
			{"N": 3, "M": 1, "requests": 1}, {"N": 2, "M": 3, "requests": 1, "loan": 2},
			{"N": 3, "M": 2, "requests": 1, "strict": 1},
			{"N": 3, "M": 2, "requests": 1, "strict": 0},
			{"N": 3, "M": 2, "requests": 1, "loan": 1, "strict": 0},
			{"N": 3, "M": 2, "requests": 1, "loan": 1, "strict": 1},
			{"N": 3, "M": 2, "requests": 1, "strict": 1, "line260": 1},
		},
		fromInit: props,
		fairness: invariants.WeakFairness,
	})
	for _, f := range []invariants.Fairness{invariants.NoFairness, invariants.WeakFairness, invariants.StrongFairness, invariants.WeakActionFairness, invariants.StrongActionFairness} {
		testTwin(t, twin{
			file: "lejeune.ring", spec: "lejeune",
			instances: []specs.Values{{"N": 2, "M": 1, "requests": 0}, {"N": 2, "M": 1, "requests": 0, "window": 1}},
			fromInit:  props,
			fairness:  f,
		})
	}
}

// lejeuneNames translates lejeune.ring's names into the Go spec
// lejeune's, for n processes: the file's parallel arrays are the fields
// of the Go spec's records (tokCnt[r] is lastTok[r].counter, wqId[r][s]
// wQueue[r][s].id, pcId[r][s] pendingReq[r][s].ReqCnt.id, ...), its sites and error flags are integers where the Go spec's are
// enumerations (N for nil), TokQ and TokL are Token.wQueue and
// Token.wLoan, its request(D=d) is the Go spec's alternative d-1, and its
// invariants say '_' where the Go spec says '-'.
func lejeuneNames(n int, recurring bool) *naming {
	fields := map[string]string{
		"tokCnt": "lastTok%s.counter", "tokLender": "lastTok%s.lender",
		"tokLastReqC": "lastTok%s.lastReqC%s", "tokLastCS": "lastTok%s.lastCS%s",
		"wqId": "wQueue%s%s.id", "wqMark": "wQueue%s%s.mark",
		"wlId": "wLoan%s%s.id", "wlMark": "wLoan%s%s.mark", "wlMiss": "wLoan%s%s.missing",
		"pcId": "pendingReq%s%s.ReqCnt.id", "prId": "pendingReq%s%s.ReqRes.id", "prMark": "pendingReq%s%s.ReqRes.mark",
		"plId": "pendingReq%s%s.ReqLoan.id", "plMark": "pendingReq%s%s.ReqLoan.mark", "plMiss": "pendingReq%s%s.ReqLoan.missing",
	}
	types := map[string]string{"TokQ": "Token.wQueue", "TokL": "Token.wLoan"}
	return &naming{
		vars: func(name string) string {
			at := strings.Index(name, "[")
			if at < 0 {
				return name
			}
			base, idx := name[:at], name[at:]
			f, ok := fields[base]
			if !ok {
				return name
			}
			first, rest := idx, ""
			if i := strings.Index(idx, "]["); i >= 0 {
				first, rest = idx[:i+1], idx[i+1:]
			}
			if strings.Count(f, "%s") == 1 {
				return fmt.Sprintf(f, first)
			}
			return fmt.Sprintf(f, first, rest)
		},
		label: func(gsys *model.System, label string) string {
			var d int
			if _, err := fmt.Sscanf(label, "request(D=%d)", &d); err == nil {
				return gsys.Processes[0].Actions[0].Label(d - 1)
			}
			if at := strings.Index(label, "("); at > 0 && strings.HasPrefix(label, "recv") {
				return label[:at] + "(from " + label[at+1:]
			}
			return label
		},
		labels: true,
		// A random configuration chains (more set) messages of different
		// aggregates, which no execution sends: the Go spec's receive
		// consumes the stranger and flags it, the file's run ends before
		// it. Such a chain is cut, and so is one with two tokens of one
		// resource (there is one token per resource). And a tokDir[r] that is the process
		// itself, which no execution sets, makes both send to themselves
		// (no channel): it is nil instead; and a request id 0 of a
		// process that is not idle or that a Counter is sent to (or any,
		// with recurring requests, where ids are 1..W) makes its
		// requests' id leave its domain, where the Go spec encodes
		// another message: it is 1 instead.
		repair: func(snap model.Snapshot) model.Snapshot {
			group := func(t string) int {
				switch t {
				case "ReqCnt", "ReqRes", "ReqLoan":
					return 0
				case "Counter":
					return 1
				}
				return 2
			}
			// tokDir[r] is never the process itself; a process that is
			// not idle has made a request (curId ≥ 1).
			for p, pv := range snap.Processes {
				counted := false // a Counter is on its way to p
				for _, ch := range snap.Channels {
					for _, m := range ch.Messages {
						counted = counted || ch.To == p && m.Type == "Counter"
					}
				}
				idle := !counted
				for i, v := range pv.Vars {
					switch {
					case strings.HasPrefix(v.Name, "tokDir[") && v.Int == p:
						pv.Vars[i].Int, pv.Vars[i].Text = n, "nil"
					case v.Name == "state":
						idle = idle && v.Int == 0
					case v.Name == "curId" && v.Int == 0 && (!idle || recurring):
						pv.Vars[i].Int, pv.Vars[i].Text = 1, "1"
					}
				}
			}
			for _, ch := range snap.Channels {
				tokens := map[int]bool{} // the resources of the chain's Tokens
				for i, m := range ch.Messages {
					if m.Type == "Token" {
						tokens[m.Fields[1].Int] = true
					}
					if i+1 == len(ch.Messages) || m.Fields[0].Int == 0 {
						clear(tokens)
						continue
					}
					next := ch.Messages[i+1]
					if group(m.Type) != group(next.Type) || next.Type == "Token" && tokens[next.Fields[1].Int] {
						m.Fields[0].Int, m.Fields[0].Text = 0, "false"
						clear(tokens)
					}
				}
			}
			return snap
		},
		rangeErrors: true,
		predicates:  func(ring string) string { return strings.ReplaceAll(ring, "_", "-") },
		absent: func(values specs.Values) []string {
			var out []string
			if values["requests"] > 0 {
				out = append(out, "id_window", "marks_unordered")
			} else {
				out = append(out, "counter_bound")
			}
			if values["strict"] == 0 {
				out = append(out, "pseudo_code")
			}
			return out
		},
		message: func(m model.MessageView, toRing bool) model.MessageView {
			out := model.MessageView{Type: m.Type, Fields: append([]model.Value(nil), m.Fields...)}
			for ring, g := range types {
				if toRing && m.Type == g {
					out.Type = ring
				} else if !toRing && m.Type == ring {
					out.Type = g
				}
			}
			if m.Type == "Token" {
				l := &out.Fields[len(out.Fields)-1]
				if toRing {
					l.Text, l.Enum = strconv.Itoa(l.Int), false
				} else {
					l.Text, l.Enum = strconv.Itoa(l.Int), true
					if l.Int == n {
						l.Text = "nil"
					}
				}
			}
			return out
		},
	}
}

// TestLejeuneStoresTheGoSpecsState checks that lejeune.ring's
// configuration holds the Go spec's variables and nothing more: every
// variable of each process is, by lejeuneNames, one of the Go spec's, as
// many of them; a step's buffers (tR, snapCS, fwd, cpId, ...) are
// the handlers' local arrays, not stored.
func TestLejeuneStoresTheGoSpecsState(t *testing.T) {
	values := specs.Values{"N": 3, "M": 2, "requests": 1, "window": 0, "loan": 1, "strict": 0, "Cmax": 0, "line260": 0}
	gsys, rsys := twinSystems(t, "lejeune.ring", "lejeune", values)
	nm := lejeuneNames(3, false)
	for p, rp := range rsys.Processes {
		goVars := map[string]bool{}
		for _, id := range gsys.Processes[p].Vars {
			goVars[gsys.Vars[id].Name] = true
		}
		var extra []string
		for _, id := range rp.Vars {
			if name := rsys.Vars[id].Name; !goVars[nm.vars(name)] {
				extra = append(extra, name)
			}
		}
		if len(extra) > 0 || len(rp.Vars) != len(gsys.Processes[p].Vars) {
			t.Errorf("process %d: %d variables, the Go spec %d; not the Go spec's: %v", p, len(rp.Vars), len(gsys.Processes[p].Vars), extra)
		}
	}
}
