package invariants

import (
	"sync"
	"sync/atomic"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/model"
)

// witness is the least state id at which a monitor saw a violation (and,
// for the same id, the least detail): with ids in breadth-first order, the
// least is on a shortest path, and the answer does not depend on the order
// in which workers report.
type witness struct {
	mu     sync.Mutex
	found  atomic.Bool
	id     explore.StateID
	detail int
	step   *model.Step
}

func (w *witness) offer(id explore.StateID, detail int, step *model.Step) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.found.Load() && (w.id < id || (w.id == id && w.detail <= detail)) {
		return
	}
	w.id, w.detail = id, detail
	w.step = nil
	if step != nil {
		s := step.Clone()
		w.step = &s
	}
	w.found.Store(true)
}

// safetyMonitor checks the spec's invariants in every visited state and
// watches for steps that overflow a channel under the "error" policy.
type safetyMonitor struct {
	invariants []model.Predicate
	state      witness // detail: index of the violated invariant
	overflow   witness // step: the overflowing step
}

func (m *safetyMonitor) Observe(v *explore.Visit) {
	for i := range m.invariants {
		if !m.invariants[i].Holds(v.State) {
			m.state.offer(v.ID, i, nil)
			break
		}
	}
	if v.Overflow != nil {
		m.overflow.offer(v.ID, 0, v.Overflow)
	}
}

func (m *safetyMonitor) Decided() bool { return m.state.found.Load() || m.overflow.found.Load() }

// deadlockMonitor looks for visited states with no enabled step outside the
// spec's valid end states.
type deadlockMonitor struct {
	validEnd *model.Predicate
	w        witness
}

func (m *deadlockMonitor) Observe(v *explore.Visit) {
	if v.Successors != 0 {
		return
	}
	if m.validEnd != nil && m.validEnd.Holds(v.State) {
		return
	}
	m.w.offer(v.ID, 0, nil)
}

func (m *deadlockMonitor) Decided() bool { return m.w.found.Load() }

// monitors fans a visit out to several monitors; it has decided when all
// of them have.
type monitors []explore.Monitor

func (ms monitors) Observe(v *explore.Visit) {
	for _, m := range ms {
		m.Observe(v)
	}
}

func (ms monitors) Decided() bool {
	for _, m := range ms {
		if !m.Decided() {
			return false
		}
	}
	return true
}
