package statespace

import "github.com/ringcheck/ringcheck/model"

// SuccessorsOf calls fn for every step from st, the configuration of rank
// v (one that Parallel passes, say, rather than one Load returned), with
// the successor's rank, ranked by difference from v, and state, both
// valid only during the call. It returns the number of steps.
func (c *Cursor) SuccessorsOf(st *model.State, v uint32, fn func(step *model.Step, to uint32, next *model.State)) (int, error) {
	sys := c.sp.sys
	return c.ex.Expand(st, func(step *model.Step, next *model.State) bool {
		fn(step, uint32(sys.RankFrom(uint64(v), st, next)), next)
		return true
	})
}
