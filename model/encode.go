package model

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
)

// packer writes fields into packed words in increasing bit order,
// keeping the word being filled in a register: a word is stored once,
// when the next field starts past it.
type packer struct {
	dst  []uint64
	word int32
	acc  uint64
}

// add writes value v, which fits field f's width; f starts at or after
// the previous field added.
func (p *packer) add(f field, v uint64) {
	if f.word != p.word {
		p.dst[p.word] = p.acc
		p.word, p.acc = f.word, 0
	}
	p.acc |= v << f.shift
	if f.next != f.word {
		p.dst[p.word] = p.acc
		p.word, p.acc = f.next, v>>(64-f.shift)
	}
}

// flush stores the word being filled.
func (p *packer) flush() { p.dst[p.word] = p.acc }

// get returns the field's bits, and above them bits of no meaning that
// the caller masks off.
func (f field) get(src []uint64) uint64 {
	return src[f.word]>>f.shift | src[f.next]<<(64-f.shift)
}

// Words is the number of 64-bit words of a packed configuration.
func (s *System) Words() int { return s.layout.words }

// Pack writes st's packed form into dst, which must have Words() words. Two
// configurations are equal if and only if their packed forms are.
func (s *System) Pack(st *State, dst []uint64) {
	l := &s.layout
	for i := range dst[:l.words] {
		dst[i] = 0
	}
	// The fields in layout order: variables, then each channel's length
	// and slots. Words no field reaches stay 0.
	p := packer{dst: dst}
	for _, i := range l.packVars {
		p.add(l.varField[i], uint64(st.Vars[i]-l.varMin[i]))
	}
	for c, f := range l.lenField {
		n := int(st.Lens[c])
		p.add(f, uint64(n))
		if l.letterMask[c] == 0 {
			continue
		}
		off, local := int(l.chanOff[c]), l.chanLocal[c]
		for i, sf := range l.slotField[c][:n] {
			p.add(sf, uint64(local[st.Msgs[off+i]]))
		}
	}
	p.flush()
}

// Unpack is the inverse of Pack: it overwrites st with the configuration
// packed in src.
func (s *System) Unpack(src []uint64, st *State) {
	l := &s.layout
	vars := st.Vars[:len(l.varField)]
	masks, mins := l.varMask[:len(vars)], l.varMin[:len(vars)]
	for i, f := range l.varField {
		// Most fields lie in one word: the second is read only for
		// one that straddles, a branch the same at every call.
		v := src[f.word] >> f.shift
		if f.next != f.word {
			v |= src[f.next] << (64 - f.shift)
		}
		vars[i] = int32(v&masks[i]) + mins[i]
	}
	for c, f := range l.lenField {
		off, global := int(l.chanOff[c]), l.chanGlobal[c]
		if m := l.chanMask[c]; m != 0 {
			// The whole channel in one word's worth of bits.
			v := l.chanField[c].get(src) & m
			n := int(v & l.lenMask[c])
			st.Lens[c] = int32(n)
			lw, letter := l.letterWidth[c], l.letterMask[c]
			v >>= l.lenWidth[c]
			msgs := st.Msgs[off : off+l.chanCap[c]]
			for i := range msgs {
				if i < n {
					msgs[i] = global[v&letter]
					v >>= lw
				} else {
					msgs[i] = 0
				}
			}
			continue
		}
		n := int(f.get(src) & l.lenMask[c])
		st.Lens[c] = int32(n)
		for i, sf := range l.slotField[c] {
			if i < n {
				st.Msgs[off+i] = global[sf.get(src)&l.letterMask[c]]
			} else {
				st.Msgs[off+i] = 0
			}
		}
	}
}

// Configurations is the size of the full configuration space: the product of
// every variable's domain size and of every channel's number of possible
// contents (every sequence of at most Capacity messages it may carry). ok is
// false when the product does not fit in 63 bits.
func (s *System) Configurations() (count uint64, ok bool) {
	c := s.layout.configs
	return c, c <= math.MaxInt64
}

// Unrank overwrites st with configuration number r of the full space, in the
// mixed-radix order whose least significant digit is process 0's first
// variable and whose most significant is the last channel.
func (s *System) Unrank(r uint64, st *State) error {
	l := &s.layout
	if count, ok := s.Configurations(); !ok || r >= count {
		return fmt.Errorf("rank %d is outside the configuration space", r)
	}
	r = l.setVars(st, r)
	for c := range l.chanCount {
		l.setChannel(st, c, r%l.chanCount[c])
		r /= l.chanCount[c]
	}
	return nil
}

// setVars overwrites the variables of st with the digits of r that come
// first in Unrank's order, and returns what remains of r.
func (l *layout) setVars(st *State, r uint64) uint64 {
	for i := 0; i < l.nvars; i++ {
		st.Vars[i] = int32(r%l.varSize[i]) + l.varMin[i]
		r /= l.varSize[i]
	}
	return r
}

// EmptyChannelConfigurations is the number of configurations whose
// channels are all empty, one for each assignment of the processes'
// variables; ok is false when it does not fit in 64 bits.
func (s *System) EmptyChannelConfigurations() (count uint64, ok bool) {
	count = 1
	for _, size := range s.layout.varSize {
		hi, lo := bits.Mul64(count, size)
		if hi != 0 {
			return 0, false
		}
		count = lo
	}
	return count, true
}

// UnrankEmptyChannels overwrites st with the configuration of rank r
// among those whose channels are all empty, in the order of Unrank (whose
// first configurations they are).
func (s *System) UnrankEmptyChannels(r uint64, st *State) error {
	l := &s.layout
	if count, ok := s.EmptyChannelConfigurations(); !ok || r >= count {
		return fmt.Errorf("rank %d is outside the configurations with empty channels", r)
	}
	l.setVars(st, r)
	for c := range l.chanCount {
		l.setChannel(st, c, 0)
	}
	return nil
}

// setChannel overwrites channel c of st with its contents number d, in the
// order of Unrank: by length, then as base-alphabet digits, head first.
func (l *layout) setChannel(st *State, c int, d uint64) {
	a := uint64(len(l.chanGlobal[c]))
	n, pow := 0, uint64(1)
	for d >= pow {
		d -= pow
		pow *= a
		n++
	}
	off := int(l.chanOff[c])
	for i := 0; i < l.chanCap[c]; i++ {
		st.Msgs[off+i] = 0
		if i < n {
			st.Msgs[off+i] = l.chanGlobal[c][d%a]
			d /= a
		}
	}
	st.Lens[c] = int32(n)
}

// ConfigurationsLog10 is the decimal logarithm of the full configuration
// space's size, which says how large a space is that Configurations cannot
// count.
func (s *System) ConfigurationsLog10() float64 {
	l := &s.layout
	sum := 0.0
	for _, size := range l.varSize {
		sum += math.Log10(float64(size))
	}
	for _, count := range l.chanCount {
		sum += math.Log10(float64(count))
	}
	return sum
}

// RandomConfiguration overwrites st with a configuration drawn uniformly
// from the full configuration space, which need not be countable in 64
// bits: every variable and every channel's contents are drawn
// independently and uniformly.
func (s *System) RandomConfiguration(rng *rand.Rand, st *State) {
	l := &s.layout
	for i := 0; i < l.nvars; i++ {
		st.Vars[i] = int32(rng.Uint64N(l.varSize[i])) + l.varMin[i]
	}
	for c := range l.chanCount {
		l.setChannel(st, c, rng.Uint64N(l.chanCount[c]))
	}
}

// RandomConfigurationUpTo is RandomConfiguration restricted to the
// configurations in which every channel holds at most fill messages: it
// draws uniformly among them (fill at or above a channel's capacity leaves
// that channel unrestricted, and fill < 0 counts as 0).
func (s *System) RandomConfigurationUpTo(rng *rand.Rand, st *State, fill int) {
	l := &s.layout
	for i := 0; i < l.nvars; i++ {
		st.Vars[i] = int32(rng.Uint64N(l.varSize[i])) + l.varMin[i]
	}
	for c := range l.chanCount {
		l.setChannel(st, c, rng.Uint64N(l.contentsUpTo(c, fill)))
	}
}

// contentsUpTo is the number of contents of channel c of at most fill
// messages: a channel's digit orders its contents by length, so they are
// the digits below this number.
func (l *layout) contentsUpTo(c, fill int) uint64 {
	a := uint64(len(l.chanGlobal[c]))
	var count, pow uint64 = 0, 1
	for k := 0; k <= max(fill, 0); k++ {
		count += pow
		if count >= l.chanCount[c] {
			return l.chanCount[c]
		}
		pow *= a
	}
	return count
}

// RankFrom returns the rank of to, given the rank of from: it only visits
// what differs between the two, which after a step is little. Both must be
// configurations of a space whose size Configurations reports as ok.
func (s *System) RankFrom(fromRank uint64, from, to *State) uint64 {
	l := &s.layout
	r := fromRank
	for i, v := range to.Vars {
		if d := v - from.Vars[i]; d != 0 {
			r += uint64(int64(d) * int64(l.varRadix[i]))
		}
	}
	for c := range l.chanCount {
		if to.Lens[c] == from.Lens[c] && s.sameContents(c, from, to) {
			continue
		}
		r += (s.chanDigit(c, to) - s.chanDigit(c, from)) * l.chanRadix[c]
	}
	return r
}

func (s *System) sameContents(c int, a, b *State) bool {
	off := int(s.layout.chanOff[c])
	for i := 0; i < int(a.Lens[c]); i++ {
		if a.Msgs[off+i] != b.Msgs[off+i] {
			return false
		}
	}
	return true
}

// chanDigit is channel c's digit in the mixed-radix rank.
func (s *System) chanDigit(c int, st *State) uint64 {
	l := &s.layout
	a := uint64(len(l.chanGlobal[c]))
	n := int(st.Lens[c])
	var d, pow uint64 = 0, 1
	for k := 0; k < n; k++ {
		d += pow
		pow *= a
	}
	off, p := int(l.chanOff[c]), uint64(1)
	for i := 0; i < n; i++ {
		d += uint64(l.chanLocal[c][st.Msgs[off+i]]) * p
		p *= a
	}
	return d
}

// Rank is the inverse of Unrank.
func (s *System) Rank(st *State) uint64 {
	l := &s.layout
	var r, radix uint64 = 0, 1
	for i := 0; i < l.nvars; i++ {
		r += uint64(st.Vars[i]-l.varMin[i]) * radix
		radix *= l.varSize[i]
	}
	for c := range l.chanCount {
		r += s.chanDigit(c, st) * radix
		radix *= l.chanCount[c]
	}
	return r
}

// NextRank advances st to the configuration of the next rank (the order of
// Unrank), reporting false when st was the last one, in which case st wraps
// around to rank 0. It costs O(1) amortised, against Unrank's O(size).
func (s *System) NextRank(st *State) bool {
	l := &s.layout
	for i := 0; i < l.nvars; i++ {
		if v := st.Vars[i] + 1; uint64(v-l.varMin[i]) < l.varSize[i] {
			st.Vars[i] = v
			return true
		}
		st.Vars[i] = l.varMin[i]
	}
	for c := range l.chanCount {
		off, n := int(l.chanOff[c]), int(st.Lens[c])
		global, local := l.chanGlobal[c], l.chanLocal[c]
		carried := true
		for i := 0; i < n; i++ {
			if k := local[st.Msgs[off+i]] + 1; int(k) < len(global) {
				st.Msgs[off+i] = global[k]
				carried = false
				break
			}
			st.Msgs[off+i] = global[0]
		}
		if !carried {
			return true
		}
		if n < l.chanCap[c] {
			st.Msgs[off+n] = global[0]
			st.Lens[c] = int32(n + 1)
			return true
		}
		for i := 0; i < n; i++ {
			st.Msgs[off+i] = 0
		}
		st.Lens[c] = 0
	}
	return false
}

// A Delta lists the fields of a packed configuration that one action of
// one process may change: the variables it may write, and the channels
// it may send on, receive from or write. Repack rewrites only those.
type Delta struct {
	vars  []int32
	chans []int32
}

// Deltas returns the Delta of every action of every process, by process
// then action (DeltaOf), or nil when the system has no access sets.
func (s *System) Deltas() [][]*Delta {
	if s.Access == nil {
		return nil
	}
	ds := make([][]*Delta, len(s.Access.Actions))
	for p, acts := range s.Access.Actions {
		ds[p] = make([]*Delta, len(acts))
		for a := range acts {
			ds[p][a] = s.DeltaOf(p, a)
		}
	}
	return ds
}

// DeltaOf returns the Delta of action a of process p, from the system's
// access sets; nil when the system has none, or the action's accesses
// are unknown.
func (s *System) DeltaOf(p, a int) *Delta {
	if s.Access == nil || p >= len(s.Access.Actions) || a >= len(s.Access.Actions[p]) {
		return nil
	}
	acc := &s.Access.Actions[p][a]
	if acc.Any {
		return nil
	}
	l := &s.layout
	d := &Delta{}
	seenChan := map[int32]bool{}
	addChan := func(c int32) {
		if !seenChan[c] {
			seenChan[c] = true
			d.chans = append(d.chans, c)
		}
	}
	for _, w := range acc.Writes {
		if int(w) < l.nvars {
			d.vars = append(d.vars, int32(w))
		} else {
			addChan(int32(int(w) - l.nvars))
		}
	}
	for _, c := range acc.Sends {
		addChan(int32(c))
	}
	for _, c := range acc.Receives {
		addChan(int32(c))
	}
	slices.Sort(d.vars)
	d.vars = slices.Compact(d.vars)
	slices.Sort(d.chans)
	return d
}

// set overwrites the field's bits in dst with v, which fits mask.
func (f field) set(dst []uint64, v, mask uint64) {
	dst[f.word] = dst[f.word]&^(mask<<f.shift) | v<<f.shift
	dst[f.next] = dst[f.next]&^(mask>>(64-f.shift)) | v>>(64-f.shift)
}

// Repack turns dst, the packed form of a configuration, into the packed
// form of st, a configuration that differs from it at most in d's
// fields: what Pack writes, at the cost of d's fields alone.
func (s *System) Repack(st *State, dst []uint64, d *Delta) {
	l := &s.layout
	for _, i := range d.vars {
		l.varField[i].set(dst, uint64(st.Vars[i]-l.varMin[i]), l.varMask[i])
	}
	for _, c := range d.chans {
		n := int(st.Lens[c])
		off, local := int(l.chanOff[c]), l.chanLocal[c]
		if m := l.chanMask[c]; m != 0 {
			// The whole channel in one word's worth of bits: its
			// messages, then its length, set at once.
			v, lw := uint64(0), l.letterWidth[c]
			for i := n - 1; i >= 0; i-- {
				v = v<<lw | uint64(local[st.Msgs[off+i]])
			}
			l.chanField[c].set(dst, v<<l.lenWidth[c]|uint64(n), m)
			continue
		}
		l.lenField[c].set(dst, uint64(n), l.lenMask[c])
		mask := l.letterMask[c]
		if mask == 0 {
			continue
		}
		for i, sf := range l.slotField[c] {
			v := uint64(0)
			if i < n {
				v = uint64(local[st.Msgs[off+i]])
			}
			sf.set(dst, v, mask)
		}
	}
}
