package invariants

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/statespace"
)

// classSet is a set of fairness classes, a bit set over the class ids a
// fairnessRule assigns (at most maxClasses). Per process, process p has
// three classes: its scheduled actions (id 3p), its finite actions (3p+1)
// and its timeouts (3p+2; a timeout is also a scheduled action of its
// process, so its step is in both classes). Per action, every action of
// every process that fairness may oblige is a class of its own. Optional
// actions belong to no class: nothing obliges them.
type classSet [classWords]uint64

// classWords is the size of a classSet in words; maxClasses the number of
// classes it can hold.
const (
	classWords = 4
	maxClasses = 64 * classWords
)

// single is the set of class id alone.
func single(id int) classSet {
	var c classSet
	c[id/64] = 1 << (id % 64)
	return c
}

// allClasses is the set of every class.
func allClasses() classSet {
	var c classSet
	for i := range c {
		c[i] = ^uint64(0)
	}
	return c
}

func (a classSet) or(b classSet) classSet {
	for i := range a {
		a[i] |= b[i]
	}
	return a
}
func (a classSet) and(b classSet) classSet {
	for i := range a {
		a[i] &= b[i]
	}
	return a
}
func (a classSet) andNot(b classSet) classSet {
	for i := range a {
		a[i] &^= b[i]
	}
	return a
}
func (a classSet) empty() bool { return a == classSet{} }

// fairnessRule says which classes are weakly and which strongly fair, and
// which classes each move belongs to.
type fairnessRule struct {
	weak, strong classSet
	// perAction: every action is a class of its own, numbered from
	// base[p] for process p's actions; otherwise a process's actions share
	// its three classes.
	perAction bool
	base      []int
}

// ruleFor is the rule of a fairness assumption over sys: the chosen
// fairness for scheduled actions, and at least weak fairness for finite
// ones (critical sections are finite whatever the scheduler does) and for
// timeouts (a timer whose condition holds expires, whatever else its
// process does). WeakActionFairness and StrongActionFairness make every
// action a class of its own; the others group a process's actions by
// role.
func ruleFor(sys *model.System, f Fairness) (fairnessRule, error) {
	if !f.perAction() {
		if n := sys.N(); 3*n > maxClasses {
			return fairnessRule{}, fmt.Errorf("fairness over %d processes: at most %d are supported", n, maxClasses/3)
		}
		return processRule(f, sys.N()), nil
	}
	r := fairnessRule{perAction: true, base: make([]int, sys.N())}
	var sched, fin, timer classSet
	id := 0
	for p := range sys.Processes {
		r.base[p] = id
		for _, a := range sys.Processes[p].Actions {
			if id >= maxClasses {
				return fairnessRule{}, fmt.Errorf("fairness per action over more than %d actions (all processes together): not supported", maxClasses)
			}
			switch a.Liveness {
			case model.Scheduled:
				sched = sched.or(single(id))
			case model.Finite:
				fin = fin.or(single(id))
			}
			if a.Kind == model.Timeout {
				timer = timer.or(single(id))
			}
			id++
		}
	}
	r.weak, r.strong = roleRule(f, sched, fin, timer)
	return r, nil
}

// processRule is the per-process rule of fairness f over n processes.
func processRule(f Fairness, n int) fairnessRule {
	var sched, fin, timer classSet
	for p := 0; p < n; p++ {
		sched = sched.or(single(3 * p))
		fin = fin.or(single(3*p + 1))
		timer = timer.or(single(3*p + 2))
	}
	var r fairnessRule
	r.weak, r.strong = roleRule(f, sched, fin, timer)
	return r
}

// roleRule returns the weakly and the strongly fair classes of fairness f,
// given the classes of scheduled actions, of finite actions and of
// timeouts.
func roleRule(f Fairness, sched, fin, timer classSet) (weak, strong classSet) {
	switch f {
	case WeakFairness, WeakActionFairness:
		return sched.or(fin).or(timer), classSet{}
	case StrongFairness, StrongActionFairness:
		return timer, sched.or(fin)
	}
	return fin.or(timer), classSet{}
}

// classesOf returns the classes whose actions the step executes.
func (r *fairnessRule) classesOf(sys *model.System, step *model.Step) classSet {
	var c classSet
	for _, m := range step.Moves {
		act := sys.ActionOf(m)
		if r.perAction {
			c = c.or(single(r.base[m.Proc] + int(m.Action)))
			continue
		}
		switch act.Liveness {
		case model.Scheduled:
			c = c.or(single(3 * int(m.Proc)))
		case model.Finite:
			c = c.or(single(3*int(m.Proc) + 1))
		}
		if act.Kind == model.Timeout {
			c = c.or(single(3*int(m.Proc) + 2))
		}
	}
	return c
}

// localGraph is a strongly connected component (or part of one) with its
// vertices renumbered 0..m-1: what the fairness analysis needs of each.
type localGraph struct {
	ids     []uint32 // local → global, sorted
	enabled []classSet
	out     [][]localEdge
	stepsOf []int // every step of the vertex, kept or not
}

type localEdge struct {
	to    int32
	taken classSet
}

// buildLocal expands the members of a component with walker w, each step
// in the classes of rule. A cancelled ctx stops it (a component may hold
// most of the graph), and its error is returned.
func buildLocal(ctx context.Context, g statespace.Graph, w statespace.Walker, members []uint32, rule *fairnessRule) (*localGraph, error) {
	sys := g.System()
	lg := &localGraph{ids: slices.Clone(members)}
	slices.Sort(lg.ids)
	m := len(lg.ids)
	lg.enabled = make([]classSet, m)
	lg.out = make([][]localEdge, m)
	lg.stepsOf = make([]int, m)
	for i, v := range lg.ids {
		if i&0xFFF == 0xFFF {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		st, err := w.Load(v)
		if err != nil {
			return nil, err
		}
		n, err := w.Successors(st, func(step *model.Step, to uint32, _ *model.State) {
			c := rule.classesOf(sys, step)
			lg.enabled[i] = lg.enabled[i].or(c)
			if j, ok := slices.BinarySearch(lg.ids, to); ok {
				lg.out[i] = append(lg.out[i], localEdge{to: int32(j), taken: c})
			}
		})
		if err != nil {
			return nil, err
		}
		lg.stepsOf[i] = n
	}
	return lg, nil
}

// subComponents returns the strongly connected components, with a cycle,
// of the local vertices alive reports (iterative Tarjan).
func (lg *localGraph) subComponents(alive []bool) [][]int32 {
	m := len(lg.ids)
	index := make([]int32, m)
	low := make([]int32, m)
	onStack := make([]bool, m)
	for i := range index {
		index[i] = -1
	}
	var (
		comps [][]int32
		stack []int32
		next  int32
	)
	type frame struct{ v, i int32 }
	for s := int32(0); int(s) < m; s++ {
		if !alive[s] || index[s] >= 0 {
			continue
		}
		dfs := []frame{{v: s}}
		index[s], low[s] = next, next
		next++
		stack = append(stack, s)
		onStack[s] = true
		for len(dfs) > 0 {
			f := &dfs[len(dfs)-1]
			if int(f.i) < len(lg.out[f.v]) {
				w := lg.out[f.v][f.i].to
				f.i++
				if !alive[w] {
					continue
				}
				if index[w] < 0 {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					dfs = append(dfs, frame{v: w})
				} else if onStack[w] {
					low[f.v] = min(low[f.v], index[w])
				}
				continue
			}
			v := f.v
			dfs = dfs[:len(dfs)-1]
			if len(dfs) > 0 {
				p := dfs[len(dfs)-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] != index[v] {
				continue
			}
			var comp []int32
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			if len(comp) > 1 || lg.selfLoop(v, alive) {
				comps = append(comps, comp)
			}
		}
	}
	return comps
}

func (lg *localGraph) selfLoop(v int32, alive []bool) bool {
	for _, e := range lg.out[v] {
		if e.to == v && alive[v] {
			return true
		}
	}
	return false
}

// fairPart returns a part of the component, with a cycle, in which a cycle
// fair under rule exists, or nil. Strongly fair classes enabled somewhere
// in a part but never taken inside it rule out the states where they are
// enabled, and the rest is split again (Emerson and Lei's refinement);
// a weakly fair class enabled everywhere in a part and never taken inside
// it rules the part out. A part that passes both tests holds a fair cycle:
// one through all of it.
func (lg *localGraph) fairPart(rule fairnessRule) []int32 {
	all := make([]bool, len(lg.ids))
	for i := range all {
		all[i] = true
	}
	work := lg.subComponents(all)
	for len(work) > 0 {
		part := work[len(work)-1]
		work = work[:len(work)-1]
		in := make([]bool, len(lg.ids))
		for _, v := range part {
			in[v] = true
		}
		strong, weak := lg.unserved(part, in, rule)
		if !strong.empty() {
			for _, v := range part {
				if !lg.enabled[v].and(strong).empty() {
					in[v] = false
				}
			}
			work = append(work, lg.subComponents(in)...)
			continue
		}
		if !weak.empty() {
			continue
		}
		return part
	}
	return nil
}

// unserved returns what makes a cycle through every vertex and every
// edge of the part (in marks its vertices) unfair under rule: the
// strongly fair classes enabled somewhere in the part, and the weakly
// fair classes enabled everywhere in it, that no edge inside the part
// takes. A cycle with neither is fair.
func (lg *localGraph) unserved(part []int32, in []bool, rule fairnessRule) (strong, weak classSet) {
	var some, taken classSet
	every := allClasses()
	for _, v := range part {
		some = some.or(lg.enabled[v])
		every = every.and(lg.enabled[v])
		for _, e := range lg.out[v] {
			if in[e.to] {
				taken = taken.or(e.taken)
			}
		}
	}
	return some.and(rule.strong).andNot(taken), every.and(rule.weak).andNot(taken)
}

// LoopFairness checks that repeating a loop for ever is an execution fair
// under f (under NoFairness, finite actions and timeouts are still weakly
// fair), with the test the liveness analyses apply to the cycles they
// find. states are the loop's configurations, steps its steps: steps[i]
// leads from states[i] to states[i+1], and the last back to states[0].
// first is the index of states[0] in the trace the loop closes, for the
// error, which names a process or an action that fairness obliges to
// move and that the loop never moves.
func LoopFairness(sys *model.System, states []*model.State, steps []model.Step, f Fairness, first int) error {
	if len(states) == 0 || len(steps) != len(states) {
		return fmt.Errorf("a loop of %d configurations has %d steps", len(states), len(steps))
	}
	rule, err := ruleFor(sys, f)
	if err != nil {
		return err
	}
	m := len(states)
	lg := &localGraph{ids: make([]uint32, m), enabled: make([]classSet, m), out: make([][]localEdge, m), stepsOf: make([]int, m)}
	part, in := make([]int32, m), make([]bool, m)
	ex := sys.NewExpander()
	for i, st := range states {
		lg.ids[i], part[i], in[i] = uint32(i), int32(i), true
		n, err := ex.Expand(st, func(s *model.Step, _ *model.State) bool {
			lg.enabled[i] = lg.enabled[i].or(rule.classesOf(sys, s))
			return true
		})
		if err != nil {
			return fmt.Errorf("state %d: %w", first+i, err)
		}
		lg.stepsOf[i] = n
		lg.out[i] = []localEdge{{to: int32((i + 1) % m), taken: rule.classesOf(sys, &steps[i])}}
	}
	strong, weak := lg.unserved(part, in, rule)
	for id := range maxClasses {
		class := single(id)
		switch {
		case !weak.and(class).empty():
			return fmt.Errorf("%s: enabled in every state of the loop (states %d to %d) and never taken in it, which %s fairness forbids",
				rule.className(sys, id), first, first+m-1, fairnessWord(f, false))
		case !strong.and(class).empty():
			at := slices.IndexFunc(lg.enabled, func(c classSet) bool { return !c.and(class).empty() })
			return fmt.Errorf("%s: enabled in state %d of the loop and never taken in it, which %s fairness forbids",
				rule.className(sys, id), first+at, fairnessWord(f, true))
		}
	}
	return nil
}

// fairnessWord says which fairness a class is under: strong or weak, per
// process or per action.
func fairnessWord(f Fairness, strong bool) string {
	w := "weak"
	if strong {
		w = "strong"
	}
	if f.perAction() {
		w += " per-action"
	}
	return w
}

// className names the actions of class id: an action of a process (per
// action), or a process's scheduled actions, finite actions or timeouts.
func (r *fairnessRule) className(sys *model.System, id int) string {
	if r.perAction {
		for p := len(r.base) - 1; p >= 0; p-- {
			if a := id - r.base[p]; a >= 0 && a < len(sys.Processes[p].Actions) {
				return fmt.Sprintf("action %s of process %d", sys.Processes[p].Actions[a].Name, p)
			}
		}
		return fmt.Sprintf("action class %d", id)
	}
	switch p := id / 3; id % 3 {
	case 0:
		return fmt.Sprintf("process %d", p)
	case 1:
		return fmt.Sprintf("the finite actions of process %d", p)
	default:
		return fmt.Sprintf("the timeouts of process %d", p)
	}
}

// obligations returns the classes that fairness obliges to move and that
// are enabled somewhere in the part: when there are none, every cycle of
// the part is fair.
func (lg *localGraph) obligations(part []int32, rule fairnessRule) classSet {
	var some classSet
	for _, v := range part {
		some = some.or(lg.enabled[v])
	}
	return some.and(rule.weak.or(rule.strong))
}

// fairCycle builds a cycle through the part, starting at its vertex
// start, that is fair under rule: for every obliged class enabled
// somewhere in the part it takes one of the class's steps if the part has
// one, and otherwise visits a vertex where the class is disabled; then it
// returns to start. It returns local vertices, start first, without the
// closing return to start, and for each step of the cycle (the last one
// closes it) the class it must take, if any: parallel steps between two
// states may belong to different classes.
func (lg *localGraph) fairCycle(part []int32, start int32, rule fairnessRule) ([]int32, []classSet) {
	in := make([]bool, len(lg.ids))
	for _, v := range part {
		in[v] = true
	}
	var some, taken classSet
	for _, v := range part {
		some = some.or(lg.enabled[v])
		for _, e := range lg.out[v] {
			if in[e.to] {
				taken = taken.or(e.taken)
			}
		}
	}
	obliged := some.and(rule.weak.or(rule.strong))
	cycle := []int32{start}
	var wants []classSet
	cur := start
	visit := func(want classSet, goal func(from int32, e localEdge) bool) {
		path := lg.walk(cur, in, goal)
		for range path {
			wants = append(wants, classSet{})
		}
		wants[len(wants)-1] = want
		cycle = append(cycle, path...)
		cur = cycle[len(cycle)-1]
	}
	for id := 0; id < maxClasses; id++ {
		class := single(id)
		if obliged.and(class).empty() {
			continue
		}
		if !taken.and(class).empty() {
			visit(class, func(_ int32, e localEdge) bool { return !e.taken.and(class).empty() })
			continue
		}
		if lg.enabled[cur].and(class).empty() {
			continue
		}
		visit(classSet{}, func(_ int32, e localEdge) bool { return lg.enabled[e.to].and(class).empty() })
	}
	if cur != start || len(cycle) == 1 {
		visit(classSet{}, func(_ int32, e localEdge) bool { return e.to == start })
	}
	return cycle[:len(cycle)-1], wants
}

// walk is a breadth-first search inside the part from s to the first step
// that satisfies goal; it returns the vertices after s.
func (lg *localGraph) walk(s int32, in []bool, goal func(from int32, e localEdge) bool) []int32 {
	parent := map[int32]int32{s: s}
	queue := []int32{s}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, e := range lg.out[v] {
			if !in[e.to] {
				continue
			}
			if goal(v, e) {
				path := []int32{e.to}
				for u := v; u != s; u = parent[u] {
					path = append(path, u)
				}
				slices.Reverse(path)
				return path
			}
			if _, seen := parent[e.to]; !seen {
				parent[e.to] = v
				queue = append(queue, e.to)
			}
		}
	}
	return nil // unreachable in a strongly connected part
}

// livenessViolation is a way for a process to wait forever.
type livenessViolation struct {
	deadlock bool     // a state with no step, where the process waits
	prefix   []uint32 // from an initial state to the cycle's first state
	cycle    []uint32 // the cycle (empty for a deadlock)
	wants    []classSet
	rule     fairnessRule // the classes of wants
}

// findWaiting looks, in the reachable graph g, for a way to stay forever
// in the states keep reports, fairly under rule: a state of keep with no
// step (outside the valid end states), or a fair cycle inside keep. The
// prefix is a shortest path from an initial state to the cycle's entry, the
// component's shallowest state. The components search asks mem as its
// stacks grow.
func findWaiting(ctx context.Context, g *explore.ReachGraph, rule fairnessRule, keep func(v uint32) bool, validEnd *model.Predicate, mem *budget.Memory, progress func(uint64)) (*livenessViolation, error) {
	w := g.NewWalker()
	var (
		dead  = int64(-1)
		found *livenessViolation
		mu    sync.Mutex
	)
	succ := func(v uint32, dst []uint32) ([]uint32, error) {
		st, err := w.Load(v)
		if err != nil {
			return dst, err
		}
		n, err := w.Successors(st, func(_ *model.Step, to uint32, _ *model.State) {
			if keep(to) {
				dst = append(dst, to)
			}
		})
		if err == nil && n == 0 && (dead < 0 || int64(v) < dead) {
			if validEnd == nil || !validEnd.Holds(st) {
				dead = int64(v)
			}
		}
		return dst, err
	}
	lw := g.NewWalker()
	component := func(members []uint32, succs []uint32) error {
		if len(members) == 1 && !slices.Contains(succs, members[0]) {
			return nil
		}
		lg, err := buildLocal(ctx, g, lw, members, &rule)
		if err != nil {
			return err
		}
		part := lg.fairPart(rule)
		if part == nil {
			return nil
		}
		start := slices.Min(part) // the shallowest: ids are in BFS order
		local, wants := lg.fairCycle(part, start, rule)
		cycle := make([]uint32, len(local))
		for i, v := range local {
			cycle[i] = lg.ids[v]
		}
		prefix, err := g.PathTo(cycle[0])
		if err != nil {
			return err
		}
		mu.Lock()
		found = &livenessViolation{prefix: prefix, cycle: cycle, wants: wants, rule: rule}
		mu.Unlock()
		return statespace.ErrStop
	}
	if err := statespace.Components(ctx, g.Size(), keep, succ, component, progress, mem); err != nil {
		return nil, err
	}
	if dead >= 0 && (found == nil || g.Depth(uint32(dead)) <= len(found.prefix)-1) {
		prefix, err := g.PathTo(uint32(dead))
		if err != nil {
			return nil, err
		}
		return &livenessViolation{deadlock: true, prefix: prefix}, nil
	}
	return found, nil
}

// counterexample turns a violation into a counterexample.
func (v *livenessViolation) counterexample(g *explore.ReachGraph) (*Counterexample, error) {
	if v.deadlock {
		states, steps, err := g.Trace(v.prefix, false)
		if err != nil {
			return nil, err
		}
		return &Counterexample{Kind: Path, States: states, Steps: steps}, nil
	}
	return lassoOf(g, v.prefix, v.cycle, v.wants, &v.rule)
}

// lassoOf builds a lasso from a prefix (ending at the cycle's first
// vertex) and a cycle whose i-th step must take the classes wants[i].
func lassoOf(g statespace.Graph, prefix, cycle []uint32, wants []classSet, rule *fairnessRule) (*Counterexample, error) {
	states, steps, err := g.Trace(prefix, false)
	if err != nil {
		return nil, err
	}
	sys := g.System()
	w := g.NewWalker()
	for i, from := range cycle {
		to := cycle[(i+1)%len(cycle)]
		st, err := w.Load(from)
		if err != nil {
			return nil, err
		}
		var chosen *model.Step
		var next *model.State
		_, err = w.Successors(st, func(step *model.Step, id uint32, succ *model.State) {
			if chosen == nil && id == to && wants[i].andNot(rule.classesOf(sys, step)).empty() {
				c := step.Clone()
				chosen, next = &c, succ.Clone()
			}
		})
		if err != nil {
			return nil, err
		}
		if chosen == nil {
			return nil, fmt.Errorf("no step from state %d to state %d of the cycle", from, to)
		}
		steps = append(steps, *chosen)
		if i+1 < len(cycle) {
			states = append(states, next)
		}
	}
	return &Counterexample{Kind: Lasso, States: states, Steps: steps, LoopStart: len(prefix) - 1}, nil
}

// checkStarvation decides requesting(p) ~> inCS(p) for every process p of
// the reachable graph: a violation is a reachable way for p to request and
// never enter, fair under the chosen fairness: a deadlock, or a fair cycle
// of states in which p requests and is not in its critical section.
func checkStarvation(ctx context.Context, g *explore.ReachGraph, fairness Fairness, mem *budget.Memory, progress func(uint64)) (Outcome, error) {
	o := Outcome{Property: Starvation, Verdict: Holds}
	sys := g.System()
	req, ok1 := sys.ProcessPredicateByName("requesting")
	cs, ok2 := sys.ProcessPredicateByName("inCS")
	if !ok1 || !ok2 {
		return o, fmt.Errorf("spec %s declares no \"requesting\" and \"inCS\" predicates, which starvation needs", sys.Name)
	}
	rule, err := ruleFor(sys, fairness)
	if err != nil {
		return o, err
	}
	var starving []int
	var first *Counterexample
	for p := 0; p < sys.N(); p++ {
		w := g.NewWalker()
		waiting := func(v uint32) bool {
			st, err := w.Load(v)
			return err == nil && req.Holds(st, p) && !cs.Holds(st, p)
		}
		viol, err := findWaiting(ctx, g, rule, cachedPredicate(g.Size(), waiting), sys.ValidEnd, mem, progress)
		if err != nil {
			return o, err
		}
		if viol == nil {
			continue
		}
		starving = append(starving, p)
		if first == nil {
			if first, err = viol.counterexample(g); err != nil {
				return o, err
			}
			first.Process = &p
		}
	}
	if len(starving) > 0 {
		o.Verdict, o.Counterexample = Violated, first
		o.Reason = fmt.Sprintf("process %d can request and never enter its critical section (fairness %s)", starving[0], fairness)
		if len(starving) > 1 {
			names := make([]string, len(starving))
			for i, q := range starving {
				names[i] = strconv.Itoa(q)
			}
			o.Reason = fmt.Sprintf("processes %s can request and never enter their critical section; the trace shows process %d (fairness %s)", strings.Join(names, ", "), starving[0], fairness)
		}
		o.Starving = starving
	}
	return o, nil
}

// cachedPredicate evaluates pred once per vertex, into two bit sets.
func cachedPredicate(n uint64, pred func(v uint32) bool) func(v uint32) bool {
	known, value := statespace.NewBits(n), statespace.NewBits(n)
	return func(v uint32) bool {
		if known.Has(v) {
			return value.Has(v)
		}
		r := pred(v)
		known.Set(v)
		if r {
			value.Set(v)
		}
		return r
	}
}
