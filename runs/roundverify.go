package runs

import (
	"errors"
	"fmt"

	"github.com/ringcheck/ringcheck/model"
)

// VerifyRounds checks, independently of SearchRounds, that w is an
// execution of sys in the round model SearchRounds describes, and returns
// the round at whose action's end legit first holds (0: in the first
// configuration), or -1 if it never does. It checks that
//   - every step is a step of sys under the central daemon, by one process,
//     and leads to the next configuration;
//   - the rounds' ends are in order and the last is the last step;
//   - in a round, each process's steps form one contiguous action, and no
//     process acts twice; with the Backward order, the actions come in
//     decreasing process order, and a process that does not act had no
//     protocol step enabled when its turn came (except in a last round cut
//     short by reaching L);
//   - an action has at most one environment step, its first, and at most
//     one timeout step;
//   - an action is complete: where it ends, its process's first enabled
//     protocol action (timeouts excluded once the action took one) has
//     none, or one step that leads back to a configuration of the action.
func VerifyRounds(sys *model.System, w *RoundWitness, legit func(*model.State) bool) (int, error) {
	if len(w.States) != len(w.Steps)+1 {
		return -1, fmt.Errorf("%d states for %d steps", len(w.States), len(w.Steps))
	}
	ex := sys.NewExpander()
	next := sys.NewState()
	for i := range w.Steps {
		st := &w.Steps[i]
		if len(st.Moves) != 1 {
			return -1, fmt.Errorf("step %d moves %d processes", i+1, len(st.Moves))
		}
		if err := ex.Apply(w.States[i], st, next); err != nil {
			return -1, fmt.Errorf("step %d: %w", i+1, err)
		}
		if !next.Equal(w.States[i+1]) {
			return -1, fmt.Errorf("step %d does not lead to configuration %d", i+1, i+1)
		}
	}
	if len(w.RoundEnds) == 0 && len(w.Steps) > 0 {
		return -1, errors.New("steps but no round")
	}
	// Every end in order and within the steps before any is indexed: a
	// witness read from a file may say anything.
	prev := 0
	for r, end := range w.RoundEnds {
		if end < prev {
			return -1, fmt.Errorf("round %d ends after step %d, before round %d", r+1, end, r)
		}
		if end > len(w.Steps) {
			return -1, fmt.Errorf("round %d ends after step %d, past the last step %d", r+1, end, len(w.Steps))
		}
		prev = end
	}
	if n := len(w.RoundEnds); n > 0 && w.RoundEnds[n-1] != len(w.Steps) {
		return -1, fmt.Errorf("the last round ends after step %d, not after the last step %d", w.RoundEnds[n-1], len(w.Steps))
	}
	v := roundVerifier{sys: sys, ex: ex, w: w}
	reached := -1
	if legit(w.States[0]) {
		reached = 0
	}
	start := 0
	for r, end := range w.RoundEnds {
		acted := make([]bool, sys.N())
		turn := sys.N() // with Backward: the processes from turn on have had theirs
		for i := start; i < end; {
			p := int(w.Steps[i].Moves[0].Proc)
			if acted[p] {
				return -1, fmt.Errorf("round %d: process %d acts twice", r+1, p)
			}
			acted[p] = true
			j := i
			for j < end && int(w.Steps[j].Moves[0].Proc) == p {
				j++
			}
			if w.Order == Backward {
				if p >= turn {
					return -1, fmt.Errorf("round %d: process %d acts after process %d, against the backward order", r+1, p, turn)
				}
				for q := turn - 1; q > p; q-- {
					if err := v.idle(q, i, r); err != nil {
						return -1, err
					}
				}
				turn = p
			}
			if err := v.action(p, i, j, r); err != nil {
				return -1, err
			}
			if reached < 0 && legit(w.States[j]) {
				reached = r + 1
			}
			i = j
		}
		if w.Order == Backward && (reached != r+1 || r+1 < len(w.RoundEnds)) {
			for q := turn - 1; q >= 0; q-- {
				if err := v.idle(q, end, r); err != nil {
					return -1, err
				}
			}
		}
		start = end
	}
	return reached, nil
}

// roundVerifier holds what VerifyRounds's checks of actions share.
type roundVerifier struct {
	sys *model.System
	ex  *model.Expander
	w   *RoundWitness
}

func (v *roundVerifier) kind(mv model.Move) model.ActionKind {
	return v.sys.ActionOf(mv).Kind
}

// idle checks that process q, which did not act in round r, had no
// protocol step enabled in configuration at, when its turn came.
func (v *roundVerifier) idle(q, at, r int) error {
	enabled := false
	_, err := v.ex.Expand(v.w.States[at], func(st *model.Step, _ *model.State) bool {
		mv := st.Moves[0]
		if int(mv.Proc) == q && v.kind(mv) != model.Environment {
			enabled = true
			return false
		}
		return true
	})
	if err != nil {
		return err
	}
	if enabled {
		return fmt.Errorf("round %d: process %d does not act although a protocol step of it is enabled at its turn", r+1, q)
	}
	return nil
}

// action checks that steps from..to-1 of round r are one complete action
// of process p.
func (v *roundVerifier) action(p, from, to, r int) error {
	w := v.w
	first := from // the first configuration of the action's protocol part
	timedOut := false
	for k := from; k < to; k++ {
		switch v.kind(w.Steps[k].Moves[0]) {
		case model.Environment:
			if k != from {
				return fmt.Errorf("round %d: process %d takes an environment step (step %d) inside its action", r+1, p, k+1)
			}
			first = from + 1
		case model.Timeout:
			if timedOut {
				return fmt.Errorf("round %d: process %d times out twice in one action (step %d)", r+1, p, k+1)
			}
			timedOut = true
		}
	}
	// The first enabled protocol action of p where the action ends, and
	// whether one of its steps leads back into the action.
	least, back := int32(-1), false
	_, err := v.ex.Expand(w.States[to], func(st *model.Step, next *model.State) bool {
		mv := st.Moves[0]
		kind := v.kind(mv)
		if int(mv.Proc) != p || kind == model.Environment || kind == model.Timeout && timedOut {
			return true
		}
		if least >= 0 && mv.Action > least {
			return true
		}
		if least < 0 || mv.Action < least {
			least, back = mv.Action, false
		}
		for k := first; k <= to; k++ {
			if next.Equal(w.States[k]) {
				back = true
			}
		}
		return true
	})
	if err != nil {
		return err
	}
	if least >= 0 && !back {
		return fmt.Errorf("round %d: process %d's action ends after step %d with a protocol step still enabled", r+1, p, to)
	}
	return nil
}
