package model

// Guards returns, for every process of st, the value of each of its
// actions' guards in st, in declaration order: guards[p][a] is whether
// action a of process p has its guard true. A guard that holds does not
// make the action a step (a receive from an empty channel, an alternative
// Allows refuses, a send that blocks, a process that runs only its first
// enabled action): Expand says which steps there are. A fault in a guard
// is an error, as Expand reports it.
func (e *Expander) Guards(st *State) (guards [][]bool, err error) {
	defer e.recoverSpecFault(&err)
	c := &e.ctx
	c.cur, c.next, c.err = st, e.next, nil
	guards = make([][]bool, len(e.sys.Processes))
	for p := range e.sys.Processes {
		c.at(p)
		acts := e.sys.Processes[p].Actions
		guards[p] = make([]bool, len(acts))
		for a := range acts {
			guards[p][a] = acts[a].Guard(c)
			if c.err != nil {
				return nil, e.wrap(c.err)
			}
		}
	}
	return guards, nil
}
