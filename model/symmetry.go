package model

import (
	"errors"
	"fmt"
	"slices"
)

// Symmetry is a group of permutations of the processes under which a
// system is invariant: rotations p → p+k (mod n), and with Reflection
// also the reflections p → k-p (mod n). A permutation moves each
// process's variables to its image and the channel from p to q to the
// channel from its image of p to its image of q.
type Symmetry struct {
	// Reflection adds the reflections to the rotations.
	Reflection bool
}

// String names the group as the language declares it.
func (y Symmetry) String() string {
	if y.Reflection {
		return "rotation, reflection"
	}
	return "rotation"
}

// group is a symmetry group compiled against a layout: for each element,
// where each slot of the image comes from.
type group struct {
	// perm[g][p] is the image of process p under element g (0 is the
	// identity).
	perm [][]int
	// varSrc[g][j] is the flat variable index of the configuration whose
	// value the image under g holds at flat index j.
	varSrc [][]int32
	// chanSrc[g][c] is the channel whose contents the image holds in
	// channel c.
	chanSrc [][]int32
}

// Symmetry declares the system invariant under the rotations of its
// processes (and their reflections with reflection); Build checks that
// the topology, the variables and the channels are.
func (b *Builder) Symmetry(reflection bool) {
	b.sys.Symmetry = &Symmetry{Reflection: reflection}
}

// compileGroup checks that every element of sys.Symmetry maps the
// topology, every process's variables and every channel to themselves,
// and computes the slot permutations.
func (l *layout) compileGroup(sys *System) (*group, error) {
	n := l.n
	k := sys.Topology.Kind
	if k != UniRing && k != BiRing {
		return nil, fmt.Errorf("symmetry %s: the topology is a %s, not a ring", sys.Symmetry, k)
	}
	if sys.Symmetry.Reflection && k != BiRing {
		return nil, fmt.Errorf("symmetry %s: reflection needs a bidirectional ring, the topology is a %s", sys.Symmetry, k)
	}
	g := &group{}
	for r := 0; r < n; r++ {
		p := make([]int, n)
		for i := range p {
			p[i] = (i + r) % n
		}
		g.perm = append(g.perm, p)
	}
	if sys.Symmetry.Reflection {
		for r := 0; r < n; r++ {
			p := make([]int, n)
			for i := range p {
				p[i] = ((r-i)%n + n) % n
			}
			g.perm = append(g.perm, p)
		}
	}
	for _, pi := range g.perm {
		vs := make([]int32, l.nvars)
		for p := 0; p < n; p++ {
			for v := 0; v < l.ndecl; v++ {
				src, dst := l.varIdx[p*l.ndecl+v], l.varIdx[pi[p]*l.ndecl+v]
				if (src < 0) != (dst < 0) {
					return nil, fmt.Errorf("symmetry %s: process %d declares %s and process %d does not", sys.Symmetry, p, sys.Vars[v].Name, pi[p])
				}
				if src >= 0 {
					vs[dst] = src
				}
			}
		}
		cs := make([]int32, len(sys.Channels))
		for c, ch := range sys.Channels {
			d := l.chanIdx[pi[ch.From]*n+pi[ch.To]]
			if d < 0 {
				return nil, fmt.Errorf("symmetry %s: there is a channel from %d to %d and none from %d to %d", sys.Symmetry, ch.From, ch.To, pi[ch.From], pi[ch.To])
			}
			if !sameChannel(sys.Channels[c], sys.Channels[d], l.chanGlobal[c], l.chanGlobal[d]) {
				return nil, fmt.Errorf("symmetry %s: the channels %d→%d and %d→%d differ", sys.Symmetry, ch.From, ch.To, pi[ch.From], pi[ch.To])
			}
			cs[d] = int32(c)
		}
		g.varSrc = append(g.varSrc, vs)
		g.chanSrc = append(g.chanSrc, cs)
	}
	return g, nil
}

func sameChannel(a, b Channel, ga, gb []Msg) bool {
	if a.Capacity != b.Capacity || a.Overflow != b.Overflow || len(ga) != len(gb) {
		return false
	}
	for i := range ga {
		if ga[i] != gb[i] {
			return false
		}
	}
	return true
}

// GroupSize is the number of elements of the system's symmetry group (1
// without one: the identity).
func (s *System) GroupSize() int {
	if s.group == nil {
		return 1
	}
	return len(s.group.perm)
}

// Permute writes into dst the image of src under element g of the
// symmetry group (0 ≤ g < GroupSize(); 0 is the identity): process p's
// variables become process π(p)'s and the channel from p to q becomes the
// channel from π(p) to π(q).
func (s *System) Permute(g int, src, dst *State) {
	if s.group == nil || g == 0 {
		dst.CopyFrom(src)
		return
	}
	l := &s.layout
	for j, i := range s.group.varSrc[g] {
		dst.Vars[j] = src.Vars[i]
	}
	for c, sc := range s.group.chanSrc[g] {
		n := src.Lens[sc]
		dst.Lens[c] = n
		do, so := int(l.chanOff[c]), int(l.chanOff[sc])
		copy(dst.Msgs[do:do+l.chanCap[c]], src.Msgs[so:so+l.chanCap[sc]])
	}
}

// ProcessImage is the image of process p under element g of the
// symmetry group.
func (s *System) ProcessImage(g, p int) int {
	if s.group == nil {
		return p
	}
	return s.group.perm[g][p]
}

// Canonizer maps configurations to their canonical representatives, the
// least of their images under the system's symmetry group in the order
// of their packed words (word 0 first). It keeps its own scratch: use one
// per goroutine.
type Canonizer struct {
	sys       *System
	img, best []uint64
	tmp       *State
}

// NewCanonizer returns a Canonizer of the system's symmetry group. It
// is an error when the system declares no symmetry.
func (s *System) NewCanonizer() (*Canonizer, error) {
	if s.group == nil {
		return nil, errors.New("the system declares no symmetry")
	}
	w := s.layout.words
	return &Canonizer{sys: s, img: make([]uint64, w), best: make([]uint64, w), tmp: s.NewState()}, nil
}

// Pack writes the packed form of st's canonical representative into dst
// (Words() words) and returns the element of the group that maps st to
// it. It allocates nothing.
func (c *Canonizer) Pack(st *State, dst []uint64) int {
	s := c.sys
	w := s.layout.words
	s.Pack(st, c.best)
	bestG := 0
	for g := 1; g < len(s.group.perm); g++ {
		s.packImage(g, st, c.img)
		if less(c.img[:w], c.best[:w]) {
			c.img, c.best = c.best, c.img
			bestG = g
		}
	}
	copy(dst[:w], c.best[:w])
	return bestG
}

// Canonical overwrites st with its canonical representative and returns
// the element of the group that maps st to it.
func (c *Canonizer) Canonical(st *State) int {
	g := c.Pack(st, c.img)
	if g != 0 {
		c.sys.Permute(g, st, c.tmp)
		st.CopyFrom(c.tmp)
	}
	return g
}

func less(a, b []uint64) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// packImage packs the image of st under element g into dst, as Pack
// packs the image itself.
func (s *System) packImage(g int, st *State, dst []uint64) {
	l := &s.layout
	for i := range dst[:l.words] {
		dst[i] = 0
	}
	vs, cs := s.group.varSrc[g], s.group.chanSrc[g]
	p := packer{dst: dst}
	for _, i := range l.packVars {
		p.add(l.varField[i], uint64(st.Vars[vs[i]]-l.varMin[i]))
	}
	for c, f := range l.lenField {
		sc := cs[c]
		n := int(st.Lens[sc])
		p.add(f, uint64(n))
		if l.letterMask[c] == 0 {
			continue
		}
		off, local := int(l.chanOff[sc]), l.chanLocal[c]
		for i, sf := range l.slotField[c][:n] {
			p.add(sf, uint64(local[st.Msgs[off+i]]))
		}
	}
	p.flush()
}

// Inverse returns the element of the symmetry group that undoes element
// g.
func (s *System) Inverse(g int) int {
	if s.group == nil {
		return 0
	}
	perm := s.group.perm[g]
	for h, q := range s.group.perm {
		inverse := true
		for p := range q {
			if q[perm[p]] != p {
				inverse = false
				break
			}
		}
		if inverse {
			return h
		}
	}
	return 0
}

// PermuteStep returns the image of st under element g of the symmetry
// group: each move's process replaced by its image, the moves in order
// of process as Expand yields them. Its faults are st's.
func (s *System) PermuteStep(g int, st *Step) Step {
	out := st.Clone()
	for i := range out.Moves {
		out.Moves[i].Proc = int32(s.ProcessImage(g, int(out.Moves[i].Proc)))
	}
	slices.SortFunc(out.Moves, func(a, b Move) int { return int(a.Proc - b.Proc) })
	return out
}

// IsCanonical reports whether st is its own canonical representative:
// no image of st under the group packs to smaller words.
func (c *Canonizer) IsCanonical(st *State) bool {
	s := c.sys
	w := s.layout.words
	s.Pack(st, c.best)
	for g := 1; g < len(s.group.perm); g++ {
		s.packImage(g, st, c.img)
		if less(c.img[:w], c.best[:w]) {
			return false
		}
	}
	return true
}

// OrbitSize is the number of configurations in st's orbit: the group's
// order divided by the number of its elements that map st to itself.
func (c *Canonizer) OrbitSize(st *State) int {
	s := c.sys
	w := s.layout.words
	s.Pack(st, c.best)
	fixed := 1
	for g := 1; g < len(s.group.perm); g++ {
		s.packImage(g, st, c.img)
		if slices.Equal(c.img[:w], c.best[:w]) {
			fixed++
		}
	}
	return len(s.group.perm) / fixed
}

// Clone returns a Canonizer of the same group with its own scratch, for
// another goroutine.
func (c *Canonizer) Clone() *Canonizer {
	w := c.sys.layout.words
	return &Canonizer{sys: c.sys, img: make([]uint64, w), best: make([]uint64, w), tmp: c.sys.NewState()}
}
