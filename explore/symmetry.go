package explore

import (
	"errors"
	"fmt"
	"slices"

	"github.com/ringcheck/ringcheck/model"
)

// concrete rebuilds the concrete states of a path from its ids, last
// first, in a search that stored canonical representatives: a start
// configuration whose canonical form is the first id's, then at each step
// a successor whose canonical form is the next id's, so that every step
// is a step of the unreduced system.
func (b *bfsPaths) concrete(ids []int64) ([]*model.State, error) {
	sys := b.sys
	cz, err := sys.NewCanonizer()
	if err != nil {
		return nil, err
	}
	w := sys.Words()
	packed, want := make([]uint64, w), make([]uint64, w)
	// is reports whether st's canonical form is state id.
	is := func(st *model.State, id int64) (bool, error) {
		cz.Pack(st, packed)
		if b.fp {
			key, err := b.store.keyOf(id)
			if err != nil {
				return false, err
			}
			return hashWords(packed) == key[0], nil
		}
		return slices.Equal(packed, b.seen.state(id, want)), nil
	}
	states := make([]*model.State, len(ids))
	first := ids[len(ids)-1]
	for _, s := range b.starts {
		ok, err := is(s, first)
		if err != nil {
			return nil, err
		}
		if ok {
			states[0] = s.Clone()
			break
		}
	}
	if states[0] == nil {
		return nil, errors.New("no starting configuration is in the orbit of the path's first state")
	}
	ex := sys.NewExpander()
	for i := 1; i < len(states); i++ {
		id := ids[len(ids)-1-i]
		var failed error
		if _, err := ex.Expand(states[i-1], func(_ *model.Step, next *model.State) bool {
			ok, err := is(next, id)
			if err != nil {
				failed = err
				return false
			}
			if ok {
				states[i] = next.Clone()
				return false
			}
			return true
		}); err != nil {
			return nil, err
		}
		if failed != nil {
			return nil, failed
		}
		if states[i] == nil {
			return nil, fmt.Errorf("no successor of state %d of the path is in the orbit of the next (the system is not symmetric under its declared group)", i-1)
		}
	}
	return states, nil
}
