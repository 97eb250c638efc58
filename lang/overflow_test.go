package lang_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ringcheck/ringcheck"
	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/lang"
)

// TestArithmeticFaults runs checks whose expressions leave int64, or
// write a message field outside its domain, under the engine each case
// names: an overflow is a fault that stops the check with its place (or
// a vet error, for a constant), never a value wrapped around; a message
// field outside its domain is a violation of safety. The expected
// verdicts, where a check decides, are exact.
func TestArithmeticFaults(t *testing.T) {
	// H is 2^62; MAX and MIN are the greatest and the least int64.
	const ring = "spec s \"s\"\ntopology ring(3)\nvar x: 0..3\nconst H = 1073741824 * 1073741824 * 4\nconst MAX = H - 1 + H\nconst MIN = -H - H\n"
	// step makes every configuration other than all-equal move.
	const step = "process all { action copy: x != x[pred] -> x := x[pred] }\n"
	safety := []invariants.Property{invariants.Safety}
	stabilizes := []invariants.Property{invariants.Closure, invariants.Convergence}
	for _, tc := range []struct {
		name, src string
		engine    ringcheck.Engine
		props     []invariants.Property
		// err is what the check's error holds; verdicts, without one,
		// what each property's verdict is ("safety=violated").
		err, verdicts string
	}{{
		name: "an invariant whose product wraps to 0 once x[0] reaches 1",
		src:  ring + "process all { action inc: x < 3 -> x := x + 1 }\ninvariant zero: x[0] * 65536 * 65536 * 65536 * 65536 == 0\n",
		// 281474976710656 * 65536 is 2^64.
		engine: ringcheck.EngineExplicit, props: safety,
		err: "s.ring:8:46: integer overflow in invariant zero: 281474976710656 * 65536 is outside int64",
	}, {
		name:   "an invariant whose product wraps negative in the initial configuration",
		src:    ring + step + "invariant pos: (x[0] + 1) * 1073741824 * 1073741824 * 8 > 0\n",
		engine: ringcheck.EngineExplicit, props: safety,
		err: "s.ring:8:53: integer overflow in invariant pos: 1152921504606846976 * 8 is outside int64 (in the initial configuration)",
	}, {
		name:   "a legitimacy predicate that wraps to true everywhere but all-zero, explicit",
		src:    ring + step + "legitimate: x[0] * 65536 * 65536 * 65536 * 65536 == 0\n",
		engine: ringcheck.EngineExplicit, props: stabilizes,
		err: "integer overflow in the legitimacy predicate: ",
	}, {
		name:   "a legitimacy predicate that wraps to true everywhere but all-zero, symbolic",
		src:    ring + step + "legitimate: x[0] * 65536 * 65536 * 65536 * 65536 == 0\n",
		engine: ringcheck.EngineSymbolic, props: stabilizes,
		// The least case that overflows, x[0] = 1: the engine meets the
		// values in increasing order.
		err: "s.ring:8:42: integer overflow: 281474976710656 * 65536 is outside int64",
	}, {
		name:   "a sum whose running total overflows, explicit",
		src:    ring + step + "legitimate: (sum p: x[p] * 1073741824 * 1073741824 * 2) == 0\n",
		engine: ringcheck.EngineExplicit, props: stabilizes,
		err: "s.ring:8:14: integer overflow in the legitimacy predicate: sum ",
	}, {
		name:   "a sum whose running total overflows, symbolic",
		src:    ring + step + "legitimate: (sum p: x[p] * 1073741824 * 1073741824 * 2) == 0\n",
		engine: ringcheck.EngineSymbolic, props: stabilizes,
		err: "s.ring:8:14: integer overflow: sum ",
	}, {
		name:   "a negation that overflows, explicit",
		src:    ring + step + "legitimate: -(MIN + 1 - x[0] % 2) >= 0\n",
		engine: ringcheck.EngineExplicit, props: stabilizes,
		err: "s.ring:8:13: integer overflow in the legitimacy predicate: -(-9223372036854775808) is outside int64",
	}, {
		name:   "a negation that overflows, symbolic",
		src:    ring + step + "legitimate: -(MIN + 1 - x[0] % 2) >= 0\n",
		engine: ringcheck.EngineSymbolic, props: stabilizes,
		err: "s.ring:8:13: integer overflow: -(-9223372036854775808) is outside int64 (a fault, for the explicit engine)",
	}, {
		name:   "an action whose sum overflows",
		src:    ring + "process all { action a: x * H + H > 0 -> x := 1 }\n",
		engine: ringcheck.EngineExplicit, props: safety,
		err: "action a: s.ring:7:31: integer overflow: 4611686018427387904 + 4611686018427387904 is outside int64",
	}, {
		name:   "an action whose division overflows",
		src:    ring + "process all { action a: x == 0 -> x := (x - H - H) / (x - 1) }\n",
		engine: ringcheck.EngineExplicit, props: safety,
		err: "action a: s.ring:7:52: integer overflow: -9223372036854775808 / -1 is outside int64",
	}, {
		name:   "a neighbour of the greatest int is the exact process, explicit",
		src:    ring + step + "process 2 { init: x := 1 }\ninvariant next: x[succ(MAX)] == x[2]\n",
		engine: ringcheck.EngineExplicit, props: safety,
		// 2^63-1 is 1 modulo 3: its successor is process 2.
		verdicts: "safety=holds",
	}, {
		name:   "a neighbour of the greatest int is the exact process, symbolic",
		src:    ring + step + "legitimate: x[succ(MAX)] == x[2]\n",
		engine: ringcheck.EngineSymbolic, props: stabilizes,
		verdicts: "closure=holds convergence=holds",
	}, {
		name: "a send of a field outside its domain violates safety",
		src: "spec s \"s\"\ntopology ring(2)\nmessage Token(v: 0..1)\nchannels capacity 1\nvar x: 0..1\n" +
			"process 0 { init: send Token(1) to succ }\nprocess all { action fwd: recv Token(v) from pred -> send Token(v + 1) to succ }\n",
		engine: ringcheck.EngineExplicit, props: safety,
		verdicts: "safety=violated",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := lang.Parse("s.ring", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			spec, err := f.Spec()
			if err == nil {
				var res *ringcheck.Result
				req := ringcheck.Request{Spec: spec, Properties: tc.props, Engine: tc.engine, Workers: 1}
				if res, err = req.Run(context.Background()); err == nil {
					var got []string
					for _, o := range res.Report.Outcomes {
						got = append(got, fmt.Sprintf("%s=%s", o.Property, o.Verdict))
						if o.Property == invariants.Safety && o.Verdict == invariants.Violated && strings.Contains(tc.src, "Token") {
							if want := "process 1 sends Token with v = 2, outside 0..1"; !strings.Contains(o.Reason, want) {
								t.Errorf("reason %q, want %q", o.Reason, want)
							}
						}
					}
					if tc.err != "" || strings.Join(got, " ") != tc.verdicts {
						t.Fatalf("verdicts %s, want %s", strings.Join(got, " "), tc.verdicts+tc.err)
					}
					return
				}
			}
			if tc.err == "" || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want one with %q", err, tc.err)
			}
		})
	}
}
