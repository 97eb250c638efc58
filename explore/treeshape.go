package explore

// treeSample is how many states a tree store holds when it plans its
// shape (reshaped).
const treeSample = 1 << 16

// planBits is the least size of the planner's scratch set, which is at
// most half full.
const planBits = 10

// reshapeBytes bounds what reshaped allocates for a store of n states:
// the states decoded, the values of the planner's subtrees, its scratch
// set, and new tables as large as the store's.
func (t *treeStore) reshapeBytes(n int64) uint64 {
	halves := int64(2 * max(t.words, 1))
	scratch := int64(1<<max(planBits, bitsFor(2*n))) * (8 + 4 + 4)
	return uint64(n*int64(t.words)*8 + 2*halves*n*4 + scratch + t.bytes())
}

// bitsFor is the number of bits of the smallest power of two ≥ n.
func bitsFor(n int64) int {
	b := 0
	for int64(1)<<b < n {
		b++
	}
	return b
}

// reshaped returns t built again in the shape its states favour
// (planTree), holding the same states with the same ids: they are added
// again in id order.
func (t *treeStore) reshaped() *treeStore {
	n := int(t.n())
	w := t.words
	states := make([]uint64, n*w)
	for id := range n {
		t.get(int64(id), states[id*w:(id+1)*w])
	}
	u := &treeStore{words: w, planned: true}
	u.nodes, u.root = planTree(states, w, n)
	u.makeTables()
	var c treeCursor
	for id := range n {
		u.add(states[id*w:(id+1)*w], &c)
	}
	return u
}

// planTree returns the inner nodes and the root of a tree over the halves
// of the n states of w words in states, built greedily: starting from the
// leaves, it joins the two subtrees whose pairs of values are the fewest
// over the states (so the table of the new node is the smallest), until
// one is left. Subtrees of correlated halves (a process's variables,
// halves that are constant) are joined first, and the root's children
// take few values each.
func planTree(states []uint64, w, n int) ([]treeNode, int32) {
	halves := 2 * max(w, 1)
	type subtree struct {
		ref  int32
		vals []uint32
	}
	cur := make([]subtree, halves)
	for i := range cur {
		vals := make([]uint32, n)
		for s := range n {
			vals[s] = half(states[s*w:(s+1)*w], int32(i))
		}
		cur[i] = subtree{ref: int32(-1 - i), vals: vals}
	}
	set := newPlanSet(max(planBits, bitsFor(2*int64(n))))
	// count[a][b] is the number of distinct pairs of subtrees a and b,
	// by reference, once computed.
	type pair struct{ a, b int32 }
	count := map[pair]int{}
	var nodes []treeNode
	for len(cur) > 1 {
		bi, bj, best := 0, 1, -1
		for i := range cur {
			for j := i + 1; j < len(cur); j++ {
				p := pair{cur[i].ref, cur[j].ref}
				c, ok := count[p]
				if !ok {
					c = set.join(cur[i].vals, cur[j].vals, nil)
					count[p] = c
				}
				if best < 0 || c < best {
					bi, bj, best = i, j, c
				}
			}
		}
		vals := make([]uint32, n)
		set.join(cur[bi].vals, cur[bj].vals, vals)
		nodes = append(nodes, treeNode{left: cur[bi].ref, right: cur[bj].ref})
		joined := subtree{ref: int32(len(nodes) - 1), vals: vals}
		cur = append(append(append(cur[:bi:bi], cur[bi+1:bj]...), cur[bj+1:]...), joined)
	}
	return nodes, int32(len(nodes) - 1)
}

// planSet numbers the distinct pairs of values of two subtrees: an
// open-addressing set of pairs, emptied by starting a new generation.
type planSet struct {
	keys []uint64
	ids  []uint32
	gen  []uint32
	cur  uint32
	mask uint64
}

func newPlanSet(bits int) *planSet {
	return &planSet{keys: make([]uint64, 1<<bits), ids: make([]uint32, 1<<bits), gen: make([]uint32, 1<<bits), mask: 1<<bits - 1}
}

// join returns the number of distinct pairs (a[s], b[s]), and with out
// sets out[s] to the number of the pair of s, numbered in order of first
// appearance.
func (p *planSet) join(a, b, out []uint32) int {
	p.cur++
	n := 0
	for s := range a {
		k := uint64(a[s])<<32 | uint64(b[s])
		i := mixKey(k) & p.mask
		for p.gen[i] == p.cur && p.keys[i] != k {
			i = (i + 1) & p.mask
		}
		if p.gen[i] != p.cur {
			p.gen[i], p.keys[i], p.ids[i] = p.cur, k, uint32(n)
			n++
		}
		if out != nil {
			out[s] = p.ids[i]
		}
	}
	return n
}
