package explore

import (
	"context"
	"errors"
	"fmt"
	"github.com/ringcheck/ringcheck/internal/cacheline"
	"math"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ringcheck/ringcheck/budget"
	"github.com/ringcheck/ringcheck/model"
)

const (
	noParent = math.MaxUint32
	// maxStoreStates is the most states the store can index with 32-bit ids.
	maxStoreStates = math.MaxUint32 - 1
	// batchPerWorker is how many frontier states a worker expands per
	// round, at most: a round also ends where the monitors are asked
	// (decideEvery), so two workers or more fill the interval between
	// two questions in one round. Larger rounds pay the merge's fixed
	// costs (its goroutines, its pass over the shards) less often.
	batchPerWorker = 16384
	// decideEvery is how many states of a level the search expands
	// between two questions to the monitors of whether they have decided
	// (and at the level's end): rounds end there too, so that a search
	// that stops because everything is decided has stored and counted
	// the same states with any number of workers.
	decideEvery = 32768
	// maxJudged is the most states a search stopped by the memory budget
	// judges without expanding them (see visitUnexpanded).
	maxJudged = 1 << 20
)

// BFS explores the states reachable from sys's initial configurations
// breadth-first, level by level, and reports every state to mon. States
// get ids in the order they are discovered, which is deterministic for any
// number of workers, so the paths Result.Path returns are shortest and the
// same from run to run.
func BFS(ctx context.Context, sys *model.System, mon Monitor, opts Options) (*Result, error) {
	e := &bfs{sys: sys, mon: mon, opts: opts, clk: newClock(ctx, opts)}
	return e.run()
}

type bfs struct {
	// deltas[p][a] is what action a of process p may change of a packed
	// state (model.System.DeltaOf), shared by the workers.
	deltas [][]*model.Delta
	// sink keeps the values of the loads that bring the visited set's
	// slots into cache before a round's candidates are inserted one by
	// one (visited.touch).
	sink  uint64
	sys   *model.System
	mon   Monitor
	opts  Options
	clk   *clock
	store *store
	seen  *visited
	trans int64
	// distinct counts the distinct pairs of a state and a successor
	// among the transitions.
	distinct int64
	depth    int
	// fp: the store keeps fingerprints (Options.Fingerprints); the packed
	// states of the level being expanded, ids levelLo on, are in level,
	// and those of the next level in next.
	fp          bool
	levelLo     int64
	level, next *frontier
	// levelStarts[d] is the first id of depth d.
	levelStarts []int64
	key         [1]uint64
	// merge holds the parallel merge's buffers.
	merge merger
	// parts are the chunks of a round, views their candidates as
	// workers, and used the views of the chunks the round keeps
	// (expandRound); they serve round after round.
	parts []roundPart
	views []worker
	used  []*worker
	// roundHigh is the most candidates a round has kept, which the
	// workers' buffers are counted as holding (held).
	roundHigh int64
	// chunkHigh is the most candidates a chunk of a round has kept,
	// which each worker's chunk set is counted as holding (held).
	chunkHigh int64
	// ws are the workers, once the search has them.
	ws []*worker
	// por is the partial-order reduction's tables (nil: none), and
	// levelEnd the first id past the level being expanded (its cycle
	// proviso).
	por      *porTables
	levelEnd int64
	// porIdle, when positive, is the number of states expanded when the
	// reduction stopped, having reduced none of them.
	porIdle int64
	// sym: states are stored as their canonical representatives
	// (Options.Symmetry).
	sym bool
}

// packedState returns the packed form of state id: from the store, or
// with fingerprints from the level being expanded or the next, through
// the worker's cache of what is on file.
func (e *bfs) packedState(id int64, c *segCache) []uint64 {
	if !e.fp {
		if len(c.state) != e.sys.Words() {
			c.state = make([]uint64, e.sys.Words())
		}
		return e.seen.state(id, c.state)
	}
	i := id - e.levelLo
	if i >= e.level.n {
		return e.next.get(i-e.level.n, c)
	}
	return e.level.get(i, c)
}

// insert adds the state packed in ws, of hash h, with its parent, unless it
// was visited or full says the store may not grow; see visited.insert.
func (e *bfs) insert(ws []uint64, h uint64, parent uint32, full bool) (int64, bool) {
	if !e.fp {
		return e.seen.insert(ws, h, parent, full)
	}
	e.key[0] = h
	id, added := e.seen.insert(e.key[:], h, parent, full)
	if added {
		e.next.add(ws)
	}
	return id, added
}

// nextLevel makes the states stored since the last call the level to
// expand, those of ids from on.
func (e *bfs) nextLevel(from int64) {
	e.levelStarts = append(e.levelStarts, from)
	if e.fp {
		e.level, e.next = e.next, e.level
		e.next.reset()
		e.levelLo = from
	}
}

// worker holds one goroutine's scratch space and the successors it found in
// the current round, in the order it found them.
type worker struct {
	_       cacheline.Pad // no other object shares a line with the fields
	ex      *model.Expander
	cur     *model.State
	packed  []uint64
	succ    []uint64 // packed successors, words each
	parents []uint32
	hash    []uint64
	trans   int64
	err     error
	visit   Visit
	yieldFn func(*model.Step, *model.State) bool
	key     [1]uint64 // a fingerprint, as the visited set's key
	cache   segCache  // the block of a frontier on file last read
	look    treeCursor
	// for yieldFn: the state being expanded and its first overflowing step
	expanding   uint32
	overflow    model.Step
	hasOverflow bool
	// maxCand is the worker's share of the most candidates a round
	// keeps (expandRound); its buffers grow past it by an eighth at a
	// time (roomFor).
	maxCand int
	// unlooked is the first of the worker's candidates not yet looked
	// up in the visited set (dropVisited), and sink keeps the values of
	// the loads that bring a lookup's lines into cache.
	unlooked int
	sink     uint64
	// chunkSet is the set of the candidates kept from the chunk being
	// expanded (foundInChunk).
	chunkSet chunkSet

	// pairs gathers the successors of the state being expanded, and
	// distinct counts the distinct ones of the round's states.
	pairs    successorSet
	distinct int64
	// parent is the packed form of the state being expanded, and
	// deltas[p][a] the fields action a of process p may change (nil:
	// unknown): a successor reached by one move is the parent repacked
	// in those fields alone (nil deltas: every successor is packed whole).
	parent []uint64
	deltas [][]*model.Delta
	// por is the reduction's scratch space (nil: no reduction).
	por *porWorker
	// canon packs successors as their canonical representatives (nil:
	// no symmetry reduction).
	canon *model.Canonizer
	// hints holds, with a tree store, the values the worker found of
	// each candidate's subtrees, a node's number each (treeStore.hint),
	// in hintsOf: the merge interns only the subtrees the worker did not
	// find.
	hints   []uint32
	hintsOf *treeStore
	_       cacheline.Pad
}

// hint returns the hints of w's candidate i, if w found them in tree,
// the tree store the merge adds to (nil otherwise: the tree was
// reshaped since, or there is none).
func (w *worker) hint(i int, tree *treeStore) []uint32 {
	if tree == nil || w.hintsOf != tree {
		return nil
	}
	n := len(tree.nodes)
	return w.hints[i*n : (i+1)*n]
}

// hintBytes is the bytes of a candidate's hints: none without a tree
// store.
func (e *bfs) hintBytes() uint64 {
	if e.seen.tree == nil {
		return 0
	}
	return uint64(len(e.seen.tree.nodes)) * 4
}

func (e *bfs) newWorker() *worker {
	sys := e.sys
	w := &worker{ex: sys.NewExpander(), cur: sys.NewState(), packed: cacheline.Alone[uint64](sys.Words()), maxCand: math.MaxInt32}
	if e.por != nil {
		w.por = newPORWorker(e.por, w.ex)
	}
	if e.sym {
		w.canon, _ = sys.NewCanonizer()
	}
	if e.deltas == nil {
		e.deltas = sys.Deltas()
	}
	w.deltas = e.deltas
	w.yieldFn = func(st *model.Step, next *model.State) bool {
		if st.Faulty() && !w.hasOverflow {
			w.overflow, w.hasOverflow = st.Clone(), true
		}
		// The successor is packed where the worker's buffers keep it,
		// and dropped from there if it is not kept.
		words, kept := len(w.packed), len(w.succ)
		w.succ = roomFor(w.succ, words, w.maxCand*words)[:kept+words]
		packed := w.succ[kept:]
		switch {
		case w.canon != nil:
			w.canon.Pack(next, packed)
		case w.deltas != nil && len(st.Moves) == 1 && w.deltas[st.Moves[0].Proc][st.Moves[0].Action] != nil:
			// A few words: a loop costs less than a call to copy's
			// memmove.
			for i, x := range w.parent {
				packed[i] = x
			}
			sys.Repack(next, packed, w.deltas[st.Moves[0].Proc][st.Moves[0].Action])
		default:
			sys.Pack(next, packed)
		}
		h := hashWords(packed)
		key := packed
		if e.fp {
			w.key[0] = h
			key = w.key[:]
		}
		// Most successors were seen before; drop them here, in parallel,
		// while the visited set is read-only (it only grows between
		// rounds): one by one with a tree store, otherwise lookupBatch
		// at a time (dropVisited).
		t := e.seen.tree
		if t != nil {
			w.pairs.add(packed, h)
			if e.seen.contains(key, h, &w.look) {
				w.succ = w.succ[:kept]
				return true
			}
		}
		w.parents = append(roomFor(w.parents, 1, w.maxCand), w.expanding)
		w.hash = append(roomFor(w.hash, 1, w.maxCand), h)
		if t != nil {
			n := len(t.nodes)
			w.hints = t.hint(roomFor(w.hints, n, w.maxCand*n), &w.look)
		}
		return true
	}
	return w
}

// lookupBatch is how many successors a worker looks up in the visited
// set together (dropVisited).
const lookupBatch = 32

// dropVisited drops w's candidates from w.unlooked on that the visited
// set holds, or that the chunk kept already (foundInChunk). It first
// reads each one's home slot, then the stored state of a slot whose tag
// matches: these loads do not depend on one another, so the processor
// overlaps their cache misses, and the lookups that follow find their
// lines in cache, where a lookup made between two steps of the expansion
// would wait for its misses alone. Without a tree store only: the tree's
// lookups are made as the successors are found, with their hints.
func (e *bfs) dropVisited(w *worker) {
	v, words := e.seen, e.sys.Words()
	lo := w.unlooked
	sink := w.sink ^ v.touch(w.hash[lo:])
	if !v.fingerprints {
		for _, h := range w.hash[lo:] {
			sh := v.shardOf(h)
			if s := sh.slots[home(h, sh.mask)]; s != 0 && s&tagMask == h&tagMask {
				sink ^= v.st.get(int64(s&0xFFFFFFFF) - 1)[0]
			}
		}
	}
	w.sink = sink
	k := lo
	for i := lo; i < len(w.parents); i++ {
		h, key := w.hash[i], w.succ[i*words:(i+1)*words]
		if e.fp {
			w.key[0] = h
			key = w.key[:]
		}
		if v.contains(key, h, nil) {
			continue
		}
		if k != i {
			// A few words: a loop costs less than a call to copy's
			// memmove.
			to := w.succ[k*words : (k+1)*words]
			for j, x := range w.succ[i*words : (i+1)*words] {
				to[j] = x
			}
			w.parents[k], w.hash[k] = w.parents[i], w.hash[i]
		}
		if !w.foundInChunk(k, e.fp) {
			k++
		}
	}
	w.succ, w.parents, w.hash = w.succ[:k*words], w.parents[:k], w.hash[:k]
	w.unlooked = k
}

// foundInChunk reports whether w kept, in the chunk it is expanding, a
// candidate before k equal to candidate k (of the same hash, with
// fingerprints); if not, it adds candidate k to the chunk's set. A chunk's
// states are consecutive ids of one level, whose successors often meet:
// the duplicates are dropped here, in parallel, rather than in the merge.
// The set holds one chunk's candidates, whichever worker takes it, so
// what a chunk keeps depends on its states alone.
func (w *worker) foundInChunk(k int, fp bool) bool {
	r := &w.chunkSet
	words := len(w.packed)
	h := w.hash[k]
	for j := r.probe(h); ; j = (j + 1) & r.mask {
		o, ok := r.entry(j)
		if !ok {
			r.put(j, k, w.hash)
			return false
		}
		if w.hash[o] == h && (fp || equalWords(w.succ[o*words:(o+1)*words], w.succ[k*words:(k+1)*words])) {
			return true
		}
	}
}

func (e *bfs) run() (*Result, error) {
	sys := e.sys
	e.fp = e.opts.Fingerprints
	var canon *model.Canonizer
	if e.opts.Symmetry {
		var err error
		if canon, err = sys.NewCanonizer(); err != nil {
			return nil, fmt.Errorf("symmetry reduction: system %s: %w", sys.Name, err)
		}
		e.sym = true
	}
	if po := e.opts.PartialOrder; po != nil {
		if err := PartialOrderApplies(sys, &e.opts); err != nil {
			return nil, fmt.Errorf("partial-order reduction: %w", err)
		}
		e.por = newPORTables(sys, po)
	}
	keyWords := sys.Words()
	tree := e.opts.Tree && !e.fp
	switch {
	case e.fp:
		keyWords = 1
	case tree:
		// The tree store holds the states; the store, their parents.
		keyWords = 0
	}
	e.store = newStore(keyWords)
	if e.fp || tree {
		// Only paths read the fingerprints and parents back: full chunks
		// go to a file, removed at once (it lives while open).
		if f, err := os.CreateTemp("", "ringcheck-store-*"); err == nil {
			if os.Remove(f.Name()) == nil {
				e.store.spillTo(f)
			} else {
				f.Close()
			}
		}
	}
	if tree {
		sample := int64(treeSample)
		if e.opts.treeSample > 0 {
			sample = int64(e.opts.treeSample)
		}
		e.seen = newTreeVisited(e.store, sys.Words(), sample)
	} else {
		e.seen = newVisited(e.store)
		e.seen.fingerprints = e.fp
	}
	if e.fp {
		// Every full segment of a level goes to the level's file, which
		// the next level reads in order: the levels keep a segment or two
		// in memory (all of them if no file can be made).
		keep := 0
		if e.opts.frontierKeep > 0 {
			keep = e.opts.frontierKeep
		}
		e.level, e.next = newFrontier(sys.Words(), keep), newFrontier(sys.Words(), keep)
	}
	maxStates := int64(maxStoreStates)
	if e.opts.MaxStates > 0 && e.opts.MaxStates < maxStates {
		maxStates = e.opts.MaxStates
	}
	truncDepth, truncStates := false, false
	// memFull: the budget refused the store's growth; the search stops
	// at the end of the round. The budget is asked with the search's own
	// count of its bytes (held), at points that depend on the states
	// alone, so that a search the budget stops stops at the same state
	// every time.
	var exceeded *budget.Exceeded
	memFull := false
	room := func(h uint64) bool {
		if memFull {
			return false
		}
		need := e.seen.growth(h)
		if e.fp {
			need += e.next.growth(1)
		}
		if need > 0 {
			if err := e.opts.Memory.Fits(e.held(), need); err != nil {
				exceeded, memFull = asExceeded(err), true
				return false
			}
		}
		return true
	}
	packed := make([]uint64, sys.Words())
	starts := e.opts.Start
	if starts == nil {
		starts = sys.Initial()
	}
	for _, init := range starts {
		if canon != nil {
			canon.Pack(init, packed)
		} else {
			sys.Pack(init, packed)
		}
		h := hashWords(packed)
		if id, _ := e.insert(packed, h, noParent, e.store.n >= maxStates || !room(h)); id < 0 && !memFull {
			truncStates = true
		}
	}
	e.nextLevel(0)

	nw := workers(e.opts)
	ws := make([]*worker, nw)
	// Each worker may gather candidates (their states, parents and
	// hashes, and their share of the merge's buffers) for an eighth of
	// what the budget allows the search, split among the workers.
	for i := range ws {
		ws[i] = e.newWorker()
		if e.opts.Memory != nil {
			ws[i].maxCand = max(1, int(min(math.MaxInt32, e.opts.Memory.Allowance()/8/uint64(nw)/(uint64(sys.Words()*8+candidateBytes)+e.hintBytes()))))
		}
	}
	e.ws = ws
	// batch is how many states a worker expands in a round: fewer than
	// batchPerWorker after a round in which a worker gathered maxCand
	// candidates before the end of its share.
	batch := int64(batchPerWorker)
	progress := func() Progress {
		return Progress{States: e.store.n, Transitions: e.trans, Depth: e.depth}
	}

	var stop StopReason
	stopped := false
	lo, hi := int64(0), e.store.n
	for lo < hi && !stopped {
		e.levelEnd = hi
		lastLevel := e.opts.MaxDepth > 0 && e.depth >= e.opts.MaxDepth
		for next := lo; next < hi; {
			// The next point at which the monitors are asked.
			decide := min(hi, lo+(next-lo)/decideEvery*decideEvery+decideEvery)
			end := min(decide, next+int64(nw)*batch)
			used, upTo, err := e.expandRound(ws, next, end)
			if err != nil {
				return nil, err
			}
			// The round is its chunks up to the first at which the
			// candidates kept reach the workers' maxCand together.
			// What the workers found in later chunks is dropped, and their
			// states are expanded again in the next round (their monitors
			// saw them: a monitor keeps the least violating id, so twice
			// is as once).
			if upTo < end {
				batch = max(1, (upTo-next)/int64(nw))
			} else if batch < batchPerWorker {
				batch = min(batchPerWorker, 2*batch)
			}
			// Merge in chunk order, which is state order: ids stay
			// deterministic. With several workers and no bound in reach
			// this round, the workers merge.
			candidates := 0
			for _, w := range used {
				candidates += len(w.parents)
			}
			parallel := nw > 1 && !tree && !lastLevel && !memFull && e.store.n+int64(candidates) <= maxStates &&
				e.opts.Memory.Fits(e.held(), e.mergeGrowth(candidates)+e.next.growth(int64(candidates))) == nil
			merged := true
			if parallel {
				e.merge.stop = e.clk.expired
				merged = e.mergeParallel(used, nw)
			}
			for _, w := range used {
				if parallel {
					e.trans += w.trans
					e.distinct += w.distinct
					continue
				}
				for i, p := range w.parents {
					if i%lookupBatch == 0 && e.seen.tree == nil {
						e.sink ^= e.seen.touch(w.hash[i:min(len(w.hash), i+lookupBatch)])
					}
					s := w.succ[i*sys.Words() : (i+1)*sys.Words()]
					full := lastLevel || e.store.n >= maxStates
					var id int64
					if hint := w.hint(i, e.seen.tree); hint != nil && !e.opts.noHints {
						id, _ = e.seen.insertTree(s, hint, p, full || !room(w.hash[i]))
					} else {
						id, _ = e.insert(s, w.hash[i], p, full || !room(w.hash[i]))
					}
					if id < 0 {
						switch {
						case lastLevel:
							truncDepth = true
						case memFull:
						default:
							truncStates = true
						}
					}
				}
				e.trans += w.trans
				e.distinct += w.distinct
			}
			next = upTo
			if !merged {
				// The context or the time limit stopped the merge: none
				// of the round's successors is kept.
				stop, stopped = e.clk.stopReason()
				e.visitUnexpanded(next, hi, ws)
				break
			}
			if !memFull {
				// The buffers count too; and the heap's live objects
				// are the safety net of the search's own count.
				err := e.opts.Memory.Fits(e.held(), 0)
				if err == nil {
					err = e.opts.Memory.Overrun()
				}
				if err != nil {
					exceeded, memFull = asExceeded(err), true
				}
			}
			if next == decide && e.mon.Decided() {
				stop, stopped = Decided, true
				break
			}
			if memFull {
				// Stop now, as SPIN does at its memory limit: expanding
				// the rest of what is stored could take as long again.
				// The monitors still judge states kept (up to
				// maxJudged of them).
				stop, stopped = MemoryBound, true
				e.visitUnexpanded(next, hi, ws)
				break
			}
			if r, ok := e.clk.check(progress); ok {
				stop, stopped = r, true
				e.visitUnexpanded(next, hi, ws)
				break
			}
		}
		if !stopped {
			e.porLevelDone(hi)
			lo, hi = hi, e.store.n
			e.nextLevel(lo)
			if lo < hi {
				e.depth++
			}
		}
	}
	if !stopped {
		switch {
		case memFull:
			stop = MemoryBound
		case truncStates:
			stop = StateBound
		case truncDepth:
			stop = DepthBound
		default:
			stop = Exhausted
		}
	}
	if e.opts.Progress != nil {
		pr := progress()
		pr.Elapsed = time.Since(e.clk.start)
		e.opts.Progress(pr)
	}
	return &Result{
		States:               e.store.n,
		Transitions:          e.trans,
		DistinctTransitions:  e.distinct,
		MaxDepth:             e.depth,
		Elapsed:              time.Since(e.clk.start),
		Stop:                 stop,
		StoreBytes:           e.store.bytes() + e.seen.bytes() + e.level.bytes() + e.next.bytes(),
		Exceeded:             exceeded,
		Fingerprints:         e.fp,
		PartialOrder:         e.por != nil,
		PartialOrderIdle:     e.porIdle,
		CollisionProbability: collisionProbability(e.fp, e.store.n),
		Symmetry:             e.sym,
		paths:                &bfsPaths{sys: sys, store: e.store, seen: e.seen, fp: e.fp, sym: e.sym, starts: starts, levelStarts: e.levelStarts},
	}, nil
}

// roundChunk is how many states a worker takes at a time in a round:
// the workers share a round's states chunk by chunk, so that a worker
// that meets states with fewer successors, or more of the machine, takes
// more of them.
const roundChunk = 256

// roundPart is what one worker found in one chunk of a round, up to
// state end: its candidates [lo, hi) in the worker's buffers, and the
// transitions and distinct successors of the chunk's states.
type roundPart struct {
	w               *worker
	lo, hi          int
	trans, distinct int64
	end             int64
	taken           bool
}

// expandRound expands states [lo, hi) on the workers, which take them
// chunk by chunk in order. It returns the round's candidates as views of
// the workers' buffers in state order (a view a chunk), and upTo: hi, or
// the end of the first chunk at which the round's candidates reach the
// workers' maxCand together; the chunks after it are dropped.
func (e *bfs) expandRound(ws []*worker, lo, hi int64) ([]*worker, int64, error) {
	size := min(int64(roundChunk), max(1, (hi-lo+int64(len(ws))-1)/int64(len(ws))))
	n := int((hi - lo + size - 1) / size)
	e.parts = resize(e.parts, n)
	// The round keeps its chunks up to the first at which the
	// candidates of the chunks so far reach limit (the workers' maxCand
	// together): a cut that depends on the states alone, not on which
	// worker took which chunk. A worker takes no chunk once the chunks
	// done hold limit candidates: every chunk taken is expanded whole,
	// so the chunks the round keeps are all expanded.
	limit := int64(len(ws)) * int64(ws[0].maxCand)
	var next, found atomic.Int64
	run := func(w *worker) error {
		w.startRound(e.seen.tree)
		for found.Load() < limit {
			if e.clk.expired() {
				// Ctrl-C or the time limit: the round ends at the
				// first chunk no worker took, and the search stops
				// after its merge.
				return nil
			}
			k := next.Add(1) - 1
			if k >= int64(n) {
				return nil
			}
			a := lo + k*size
			part := &e.parts[k]
			part.w, part.lo, part.taken, part.end = w, len(w.parents), true, min(hi, a+size)
			trans, distinct := w.trans, w.distinct
			if e.seen.tree == nil {
				w.chunkSet.reset()
			}
			err := e.expandRange(w, a, part.end)
			part.hi, part.trans, part.distinct = len(w.parents), w.trans-trans, w.distinct-distinct
			if err != nil {
				return err
			}
			found.Add(int64(part.hi - part.lo))
		}
		return nil
	}
	var err error
	if len(ws) == 1 {
		err = run(ws[0])
	} else {
		var wg sync.WaitGroup
		for _, w := range ws {
			wg.Add(1)
			go func() {
				defer wg.Done()
				w.err = run(w)
			}()
		}
		wg.Wait()
		var errs []error
		for _, w := range ws {
			errs = append(errs, w.err)
		}
		err = errors.Join(errs...)
	}
	if err != nil {
		return nil, 0, err
	}
	words := e.sys.Words()
	hintsPer := 0
	if e.seen.tree != nil {
		hintsPer = len(e.seen.tree.nodes)
	}
	e.views = resize(e.views, n)
	used, upTo, kept := e.used[:0], hi, int64(0)
	for k := range e.parts {
		part := &e.parts[k]
		if !part.taken {
			// Past the cut: the workers stopped taking chunks.
			upTo = lo + int64(k)*size
			break
		}
		v, w := &e.views[k], part.w
		v.succ, v.parents, v.hash = w.succ[part.lo*words:part.hi*words], w.parents[part.lo:part.hi], w.hash[part.lo:part.hi]
		v.trans, v.distinct, v.hintsOf = part.trans, part.distinct, w.hintsOf
		if hintsPer > 0 && w.hintsOf != nil {
			v.hints = w.hints[part.lo*hintsPer : part.hi*hintsPer]
		}
		used = append(used, v)
		e.chunkHigh = max(e.chunkHigh, int64(part.hi-part.lo))
		if kept += int64(part.hi - part.lo); kept >= limit {
			upTo = part.end
			break
		}
	}
	e.used = used
	e.roundHigh = max(e.roundHigh, kept)
	return used, upTo, nil
}

// startRound empties w's buffers for a round.
func (w *worker) startRound(tree *treeStore) {
	w.succ, w.parents, w.hash, w.hints, w.trans, w.distinct = w.succ[:0], w.parents[:0], w.hash[:0], w.hints[:0], 0, 0
	w.unlooked = 0
	w.hintsOf = tree
}

// expandRange expands states [lo, hi) with w, adding their candidates
// to its buffers.
func (e *bfs) expandRange(w *worker, lo, hi int64) error {
	sys := e.sys
	for id := lo; id < hi; id++ {
		w.parent = e.packedState(id, &w.cache)
		sys.Unpack(w.parent, w.cur)
		if w.cache.err != nil {
			return w.cache.err
		}
		w.expanding, w.hasOverflow = uint32(id), false
		w.pairs.reset(sys.Words())
		// Without a tree store, the state's successors are the
		// worker's candidates from first on until they are looked up.
		first := len(w.parents)
		var n int
		var err error
		if w.por != nil {
			n, err = e.expandReduced(w)
		} else {
			n, err = w.ex.Expand(w.cur, w.yieldFn)
		}
		if err != nil {
			return fmt.Errorf("expanding state %d: %w", id, err)
		}
		w.trans += int64(n)
		if e.seen.tree == nil {
			w.pairs.view(w.succ[first*len(w.packed):], w.hash[first:])
		}
		w.distinct += int64(w.pairs.distinct())
		if e.seen.tree == nil && len(w.parents)-w.unlooked >= lookupBatch {
			e.dropVisited(w)
		}
		w.visit = Visit{ID: StateID(id), Depth: e.depth, State: w.cur, Successors: n}
		if w.hasOverflow {
			w.visit.Overflow = &w.overflow
		}
		e.mon.Observe(&w.visit)
	}
	if e.seen.tree == nil {
		e.dropVisited(w)
	}
	return nil
}

// visitUnexpanded reports stored states the search did not expand, so
// that the monitor still judges their state predicates: [from, levelEnd)
// are at the current depth, the rest one deeper. A search that the
// context or its time limit stopped judges none: it ends now. One that
// the memory budget stopped judges the first maxJudged of them, on its
// workers, and stops judging if the context is cancelled meanwhile.
func (e *bfs) visitUnexpanded(from, levelEnd int64, ws []*worker) {
	if e.clk.expired() {
		return
	}
	to := min(e.store.n, from+maxJudged)
	share := (to - from + int64(len(ws)) - 1) / int64(len(ws))
	var wg sync.WaitGroup
	for i, w := range ws {
		a := min(to, from+int64(i)*share)
		b := min(to, a+share)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := a; id < b; id++ {
				if (id-a)%4096 == 0 && e.clk.ctx.Err() != nil {
					return
				}
				e.sys.Unpack(e.packedState(id, &w.cache), w.cur)
				depth := e.depth
				if id >= levelEnd {
					depth++
				}
				w.visit = Visit{ID: StateID(id), Depth: depth, State: w.cur, Successors: -1}
				e.mon.Observe(&w.visit)
			}
		}()
	}
	wg.Wait()
}

type bfsPaths struct {
	sys   *model.System
	store *store
	seen  *visited
	// fp: the store holds fingerprints, and paths are rebuilt from the
	// configurations the search started from.
	fp bool
	// sym: the store holds canonical representatives, and paths are
	// replayed from the configurations the search started from.
	sym    bool
	starts []*model.State
	// levelStarts[d] is the first id of depth d.
	levelStarts []int64
}

func (b *bfsPaths) path(id StateID) ([]*model.State, []model.Step, error) {
	if id < 0 || int64(id) >= b.store.n {
		return nil, nil, fmt.Errorf("state %d was not visited", id)
	}
	var ids []int64
	for cur := int64(id); ; {
		ids = append(ids, cur)
		p, err := b.store.parentOf(cur)
		if err != nil {
			return nil, nil, err
		}
		if p == noParent {
			break
		}
		cur = int64(p)
	}
	var states []*model.State
	if b.sym || b.fp {
		var err error
		if states, err = b.replay(ids); err != nil {
			return nil, nil, err
		}
	} else {
		states = make([]*model.State, len(ids))
		for i, sid := range ids {
			st := b.sys.NewState()
			b.sys.Unpack(b.seen.state(sid, make([]uint64, b.sys.Words())), st)
			states[len(ids)-1-i] = st
		}
	}
	steps, err := b.sys.StepsThrough(states, false)
	if err != nil {
		return nil, nil, err
	}
	return states, steps, nil
}

// replay rebuilds the states of a path from its ids, last first, where
// the store does not hold the states themselves: with fingerprints, or
// with symmetry, where it holds each orbit's representative. It starts
// from the configuration the search started from whose key (its
// fingerprint, or its representative) is the first id's, and takes at
// each step the first successor whose key is the next id's, so that
// every step is a step of the unreduced system.
func (b *bfsPaths) replay(ids []int64) ([]*model.State, error) {
	sys := b.sys
	pack := sys.Pack
	if b.sym {
		cz, err := sys.NewCanonizer()
		if err != nil {
			return nil, err
		}
		pack = func(st *model.State, dst []uint64) { cz.Pack(st, dst) }
	}
	packed, want := make([]uint64, sys.Words()), make([]uint64, sys.Words())
	// is reports whether st's key is state id's.
	is := func(st *model.State, id int64) (bool, error) {
		pack(st, packed)
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
	for _, s := range b.starts {
		ok, err := is(s, ids[len(ids)-1])
		if err != nil {
			return nil, err
		}
		if ok {
			states[0] = s.Clone()
			break
		}
	}
	if states[0] == nil {
		if b.sym {
			return nil, errors.New("no starting configuration is in the orbit of the path's first state")
		}
		return nil, errors.New("no starting configuration has the path's first fingerprint")
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
			}
			return !ok
		}); err != nil {
			return nil, err
		}
		if failed != nil {
			return nil, failed
		}
		if states[i] == nil {
			if b.sym {
				return nil, fmt.Errorf("no successor of state %d of the path is in the orbit of the next (the system is not symmetric under its declared group)", i-1)
			}
			return nil, fmt.Errorf("no successor of state %d of the path has the next fingerprint (two states shared one)", i-1)
		}
	}
	return states, nil
}

// collisionProbability bounds the probability that two of n states
// shared a 64-bit fingerprint: n(n-1)/2^65 (0 without fingerprints).
func collisionProbability(fp bool, n int64) float64 {
	if !fp {
		return 0
	}
	x := float64(n)
	return x * (x - 1) / math.Exp2(65)
}
