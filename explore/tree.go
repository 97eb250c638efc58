package explore

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// treeStore keeps packed states tree-compressed (Laarman, van de Pol and
// Weber's tree compression): a state's words are cut into 32-bit halves,
// the leaves of a binary tree, and each inner node of the tree has a
// table that interns the pairs of its children's values (a half, or the
// id of the child's subtree in the child's table) as dense 32-bit ids, in
// the order they are first added. A state is its root's id; the subtrees
// that states share are stored once. Finding a state only reads the
// tables, so any number of goroutines may look states up while none adds
// one.
//
// The tree starts balanced over the halves in order; once it holds
// treeSample states, reshaped builds it again in the shape those states
// favour (see planTree), adding them again in order, so that their ids
// stay.
type treeStore struct {
	words int
	// nodes are the inner nodes, each after its children: the root is
	// the last.
	nodes  []treeNode
	tables []treeTable
	root   int32
	// planned: the shape is the one the first treeSample states favour.
	planned bool
}

// treeNode is an inner node of the tree: each child is an inner node's
// index in treeStore.nodes (≥ 0), or leaf i as -1-i, half i of the packed
// state (the low half of word i/2 for even i, its high half for odd i).
type treeNode struct {
	left, right int32
}

// treeCursor holds, for one goroutine, the last state it looked up and
// the values of the subtrees it found then: a subtree whose halves did
// not change since is not looked up again. Ids never change once given,
// so a value found stays right.
type treeCursor struct {
	of   *treeStore
	ws   []uint64
	vals []uint32
	ok   []bool
}

// newTreeStore returns an empty tree store for states of words words,
// balanced over their halves in order.
func newTreeStore(words int) *treeStore {
	t := &treeStore{words: words}
	// At least two halves, so that the root is an inner node; the tree of
	// two halves has one shape only.
	t.root = t.build(0, 2*max(words, 1))
	t.planned = len(t.nodes) == 1
	t.makeTables()
	return t
}

// makeTables gives every inner node an empty table: with narrow keys
// where a child is an inner node.
func (t *treeStore) makeTables() {
	t.tables = make([]treeTable, len(t.nodes))
	for i, n := range t.nodes {
		t.tables[i].init(n.left >= 0, n.right >= 0)
	}
}

// build adds the nodes of the subtree over halves [lo, hi) and returns
// its reference.
func (t *treeStore) build(lo, hi int) int32 {
	if hi-lo == 1 {
		return int32(-1 - lo)
	}
	mid := lo + (hi-lo+1)/2
	l := t.build(lo, mid)
	r := t.build(mid, hi)
	t.nodes = append(t.nodes, treeNode{left: l, right: r})
	return int32(len(t.nodes) - 1)
}

// half returns half i of ws.
func half(ws []uint64, i int32) uint32 {
	if int(i>>1) >= len(ws) {
		return 0
	}
	return uint32(ws[i>>1] >> (32 * (i & 1)))
}

// look returns the value of subtree ref of ws and whether its table has
// it (adding it, and what it is made of, with add); changed says that the
// subtree's halves differ from those of the cursor's last state.
func (t *treeStore) look(ws []uint64, ref int32, c *treeCursor, add bool) (v uint32, ok, changed bool) {
	if ref < 0 {
		i := -1 - ref
		v = half(ws, i)
		return v, true, c == nil || half(c.ws, i) != v
	}
	n := t.nodes[ref]
	l, lok, lch := t.look(ws, n.left, c, add)
	r, rok, rch := t.look(ws, n.right, c, add)
	changed = lch || rch
	if c != nil && !changed && c.ok[ref] {
		return c.vals[ref], true, false
	}
	if lok && rok {
		key := uint64(l)<<32 | uint64(r)
		if add {
			tb := &t.tables[ref]
			if tb.tooNarrow(int64(l), int64(r)) {
				tb.widen()
			}
			v, ok = tb.intern(key), true
		} else {
			v, ok = t.tables[ref].find(key)
		}
	}
	if c != nil {
		c.vals[ref], c.ok[ref] = v, ok
	}
	return v, ok, changed
}

// ready makes c a cursor of t's.
func (t *treeStore) ready(c *treeCursor) {
	if c != nil && c.of != t {
		c.of = t
		c.ws = make([]uint64, t.words)
		c.vals = make([]uint32, len(t.nodes))
		c.ok = make([]bool, len(t.nodes))
	}
}

// find returns the id of the state packed in ws, or -1. It only reads the
// tables; c, if not nil, is the caller's own cursor.
func (t *treeStore) find(ws []uint64, c *treeCursor) int64 {
	t.ready(c)
	v, ok, _ := t.look(ws, t.root, c, false)
	if c != nil {
		copy(c.ws, ws)
	}
	if !ok {
		return -1
	}
	return int64(v)
}

// add returns the id of the state packed in ws, adding it if t does not
// hold it: a new state's id is the number of states added before it.
func (t *treeStore) add(ws []uint64, c *treeCursor) int64 {
	t.ready(c)
	v, _, _ := t.look(ws, t.root, c, true)
	if c != nil {
		copy(c.ws, ws)
	}
	return int64(v)
}

// noHint is the hint of a subtree the tree store did not have.
const noHint = math.MaxUint32

// hint appends to hints the value of every inner node's subtree of the
// state c looked up last, in node order, or noHint where the tree store
// did not have it.
func (t *treeStore) hint(hints []uint32, c *treeCursor) []uint32 {
	for i := range t.nodes {
		v := uint32(noHint)
		if c.ok[i] {
			v = c.vals[i]
		}
		hints = append(hints, v)
	}
	return hints
}

// lookHinted returns the value of subtree ref of ws, adding it where its
// hint is noHint: the subtrees hint gives a value are in the tables
// already (ids never change), so only the others are interned, in the
// order add interns them. A table's ids stay those add gives.
func (t *treeStore) lookHinted(ws []uint64, ref int32, hint []uint32) uint32 {
	if ref < 0 {
		return half(ws, -1-ref)
	}
	if v := hint[ref]; v != noHint {
		return v
	}
	n := t.nodes[ref]
	l := t.lookHinted(ws, n.left, hint)
	r := t.lookHinted(ws, n.right, hint)
	tb := &t.tables[ref]
	if tb.tooNarrow(int64(l), int64(r)) {
		tb.widen()
	}
	return tb.intern(uint64(l)<<32 | uint64(r))
}

// n is the number of states added.
func (t *treeStore) n() int64 { return t.tables[t.root].n }

// get writes the state of id into buf, of t.words words, and returns it.
func (t *treeStore) get(id int64, buf []uint64) []uint64 {
	clear(buf)
	t.unfold(t.root, uint32(id), buf)
	return buf
}

// unfold writes the halves of subtree ref of value v into ws.
func (t *treeStore) unfold(ref int32, v uint32, ws []uint64) {
	if ref < 0 {
		if i := -1 - ref; int(i>>1) < len(ws) {
			ws[i>>1] |= uint64(v) << (32 * (i & 1))
		}
		return
	}
	key := t.tables[ref].key(v)
	n := t.nodes[ref]
	t.unfold(n.left, uint32(key>>32), ws)
	t.unfold(n.right, uint32(key), ws)
}

// growth is the most bytes the next add allocates: every table's next
// chunk of keys or grown index, where one is due, and its keys made wide
// where a child may give an id past what narrow keys hold.
func (t *treeStore) growth() uint64 {
	var n uint64
	for i := range t.tables {
		tb := &t.tables[i]
		n += tb.growth()
		nd := t.nodes[i]
		var l, r int64
		if nd.left >= 0 {
			l = t.tables[nd.left].n
		}
		if nd.right >= 0 {
			r = t.tables[nd.right].n
		}
		if tb.tooNarrow(l, r) {
			n += tb.widenBytes()
		}
	}
	return n
}

// bytes is the memory of the tables.
func (t *treeStore) bytes() int64 {
	var n int64
	for i := range t.tables {
		n += t.tables[i].bytes()
	}
	return n
}

// treeTable interns 64-bit keys as ids 0, 1, ... in the order they are
// first added: keys[id] is the key of id, in chunks of 1<<chunkBits (the
// first grows by doubling up to that), and index, an open-addressing
// table with linear probing, holds id+1 at the key's slot (0: empty). A
// key's first slot is its hash scaled to the index's size, which need not
// be a power of two: the index grows by an eighth once it is fuller than
// its most load (over).
//
// While the table has fewer than tagLimit ids (2^24 - 1), a slot holds 8
// bits of the key's hash as a tag above the id plus one, so that most
// slots of other keys are passed without reading their keys, and the
// index may be seven eighths full; past that, a slot holds the id plus
// one alone, and the index is at most three quarters full.
//
// A table with a child that is an inner node keeps its keys narrow, that
// child's id in 24 bits (a half takes 32), in 6 bytes (two 24-bit ids)
// or 7 (a half and an id), while its children's ids are below
// narrowLimit (2^24); it makes them wide (8 bytes) before its first key
// with a larger one.
type treeTable struct {
	keys  [][]byte
	width int
	// leftBits and rightBits are the bits of a key's left and right
	// values: 24 for an inner child's id in a narrow key, otherwise 32.
	leftBits, rightBits int
	n                   int64
	index               []uint32
	tagged              bool
	tagLimit            int64
	// narrowLimit bounds the children's ids of narrow keys.
	narrowLimit int64
	// refound counts the keys intern was given that the table had.
	refound int64
}

// The widths of a key, in bytes: two ids, a half and an id, or wide.
const narrowWidth, mixedWidth, wideWidth = 6, 7, 8

const (
	// treeFirstKeys is the capacity of a table's first chunk of keys at
	// the start, and treeFirstSlots the size of its index.
	treeFirstKeys  = 16
	treeFirstSlots = 32
	// taggedLoad and plainLoad are the most loads of an index with and
	// without tags, in eighths.
	taggedLoad, plainLoad = 7, 6
)

// over reports whether an index of size slots holding n ids is fuller
// than its most load.
func (t *treeTable) over(n int64, size int) bool {
	load := int64(plainLoad)
	if t.tagged {
		load = taggedLoad
	}
	return n*8 > int64(size)*load
}

// untaggedSize is the size of the index once its tags are dropped: at
// most three quarters full with n+1 ids.
func (t *treeTable) untaggedSize() int {
	size := len(t.index)
	for (t.n+1)*8 > int64(size)*plainLoad {
		size = grownSlots(size)
	}
	return size
}

// tagShift is where a slot's tag starts: ids plus one below it.
const tagShift = 24

// init makes t an empty table whose left and right children are inner
// nodes or not: a narrow side for each that is.
func (t *treeTable) init(leftInner, rightInner bool) {
	t.index = make([]uint32, treeFirstSlots)
	t.tagged, t.tagLimit = true, 1<<tagShift-1
	t.narrowLimit = 1 << 24
	t.leftBits, t.rightBits = 32, 32
	if leftInner {
		t.leftBits = 24
	}
	if rightInner {
		t.rightBits = 24
	}
	t.width = (t.leftBits + t.rightBits) / 8
}

// tooNarrow reports whether a key of left and right values l and r does
// not fit the table's narrow keys.
func (t *treeTable) tooNarrow(l, r int64) bool {
	return t.leftBits < 32 && l >= t.narrowLimit || t.rightBits < 32 && r >= t.narrowLimit
}

// slot returns the first slot of a key of hash h in an index of size
// slots.
func slot(h uint64, size int) int {
	hi, _ := bits.Mul64(h, uint64(size))
	return int(hi)
}

// entry is the slot of id, of a key of hash h.
func (t *treeTable) entry(id uint32, h uint64) uint32 {
	if t.tagged {
		return uint32(h&0xFF)<<tagShift | (id + 1)
	}
	return id + 1
}

// match returns the id slot e holds if it may be that of a key of hash
// h (its tag is h's).
func (t *treeTable) match(e uint32, h uint64) (uint32, bool) {
	if !t.tagged {
		return e - 1, true
	}
	if e>>tagShift != uint32(h&0xFF) {
		return 0, false
	}
	return e&(1<<tagShift-1) - 1, true
}

// mixKey hashes a key (Murmur3's finalizer).
func mixKey(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}

// key returns the key of id.
func (t *treeTable) key(id uint32) uint64 {
	c, o := t.keys[id>>chunkBits], int(id&(1<<chunkBits-1))*t.width
	if t.width == wideWidth {
		return binary.LittleEndian.Uint64(c[o:])
	}
	p := uint64(binary.LittleEndian.Uint32(c[o:])) | uint64(binary.LittleEndian.Uint16(c[o+4:]))<<32
	if t.width == mixedWidth {
		p |= uint64(c[o+6]) << 48
	}
	return p>>t.rightBits<<32 | p&(1<<t.rightBits-1)
}

// widen makes the keys wide.
func (t *treeTable) widen() {
	for c, chunk := range t.keys {
		wide := make([]byte, 0, cap(chunk)/t.width*wideWidth)
		for j := range len(chunk) / t.width {
			wide = binary.LittleEndian.AppendUint64(wide, t.key(uint32(c<<chunkBits+j)))
		}
		t.keys[c] = wide
	}
	t.width, t.leftBits, t.rightBits = wideWidth, 32, 32
}

// widenBytes is what widen allocates.
func (t *treeTable) widenBytes() uint64 {
	var n uint64
	for _, c := range t.keys {
		n += uint64(cap(c) / t.width * wideWidth)
	}
	return n
}

// find returns the id of key k, if the table has it.
func (t *treeTable) find(k uint64) (uint32, bool) {
	index := t.index
	h := mixKey(k)
	for i := slot(h, len(index)); ; {
		e := index[i]
		if e == 0 {
			return 0, false
		}
		if id, ok := t.match(e, h); ok && t.key(id) == k {
			return id, true
		}
		if i++; i == len(index) {
			i = 0
		}
	}
}

// intern returns the id of key k, adding k if the table does not have it.
func (t *treeTable) intern(k uint64) uint32 {
	h := mixKey(k)
	for i := slot(h, len(t.index)); ; {
		e := t.index[i]
		if e == 0 {
			if t.tagged && t.n+1 >= t.tagLimit {
				// The next id plus one does not fit below the tag.
				size := t.untaggedSize()
				t.tagged = false
				t.rebuild(size)
				return t.intern(k)
			}
			id := uint32(t.n)
			t.append(k)
			t.index[i] = t.entry(id, h)
			if t.over(t.n, len(t.index)) {
				t.rebuild(grownSlots(len(t.index)))
			}
			return id
		}
		if id, ok := t.match(e, h); ok && t.key(id) == k {
			t.refound++
			return id
		}
		if i++; i == len(t.index) {
			i = 0
		}
	}
}

// append adds key k as id t.n.
func (t *treeTable) append(k uint64) {
	c := int(t.n >> chunkBits)
	if c == len(t.keys) {
		size := 1 << chunkBits
		if c == 0 {
			size = treeFirstKeys
		}
		t.keys = append(t.keys, make([]byte, 0, size*t.width))
	}
	if len(t.keys[c]) == cap(t.keys[c]) {
		grown := make([]byte, len(t.keys[c]), 2*cap(t.keys[c]))
		copy(grown, t.keys[c])
		t.keys[c] = grown
	}
	switch p := k>>32<<t.rightBits | k&(1<<t.rightBits-1); t.width {
	case wideWidth:
		t.keys[c] = binary.LittleEndian.AppendUint64(t.keys[c], k)
	case mixedWidth:
		t.keys[c] = append(binary.LittleEndian.AppendUint16(binary.LittleEndian.AppendUint32(t.keys[c], uint32(p)), uint16(p>>32)), byte(p>>48))
	default:
		t.keys[c] = binary.LittleEndian.AppendUint16(binary.LittleEndian.AppendUint32(t.keys[c], uint32(p)), uint16(p>>32))
	}
	t.n++
}

// grownSlots is the size of an index of size slots grown: an eighth
// larger, so that an index holds at least eight ninths of its most load.
func grownSlots(size int) int { return size + size/8 }

// rebuild makes a new index of size slots, adding the keys in id order
// (the keys are read in order, and the index is the same whatever its
// past).
func (t *treeTable) rebuild(size int) {
	index := make([]uint32, size)
	for id := range uint32(t.n) {
		h := mixKey(t.key(id))
		i := slot(h, len(index))
		for index[i] != 0 {
			if i++; i == len(index) {
				i = 0
			}
		}
		index[i] = t.entry(id, h)
	}
	t.index = index
}

// growth is the bytes the next new key allocates: a chunk of keys (or
// the first one doubled), the index rebuilt without tags and the grown
// index, where due.
func (t *treeTable) growth() uint64 {
	var n uint64
	c := int(t.n >> chunkBits)
	switch {
	case c == len(t.keys):
		if c == 0 {
			n += treeFirstKeys * uint64(t.width)
		} else {
			n += uint64(t.width) << chunkBits
		}
	case len(t.keys[c]) == cap(t.keys[c]):
		n += uint64(cap(t.keys[c])) * 2
	}
	if t.tagged && t.n+1 >= t.tagLimit {
		// The index without tags, large enough for the next id.
		return n + uint64(t.untaggedSize())*4
	}
	if t.over(t.n+1, len(t.index)) {
		n += uint64(grownSlots(len(t.index))) * 4
	}
	return n
}

// bytes is the memory of the table.
func (t *treeTable) bytes() int64 {
	n := int64(len(t.index)) * 4
	for _, c := range t.keys {
		n += int64(cap(c))
	}
	return n
}
