package ringcheck

import (
	"testing"

	"github.com/ringcheck/ringcheck/invariants"
	"github.com/ringcheck/ringcheck/specs/spectest"
)

// BenchmarkKey measures hashstructure's cost for one request's key, which
// is computed once per check (never per state).
func BenchmarkKey(b *testing.B) {
	r := &Request{Spec: spectest.Builtin(b, "dijkstra"), Params: map[string]int{"n": 5, "K": 5}, Properties: []invariants.Property{invariants.Closure, invariants.Convergence}, Workers: 1}
	res, err := r.plan()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.key(res.Values, res.Options); err != nil {
			b.Fatal(err)
		}
	}
}
