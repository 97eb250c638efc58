package explore

import (
	"cmp"
	"github.com/ringcheck/ringcheck/internal/cacheline"
	"slices"
)

// CountDistinct returns how many distinct values keys (the successors of
// one state, by rank) hold. A few are compared pairwise; more are sorted
// in place first.
func CountDistinct[T cmp.Ordered](keys []T) int {
	if len(keys) <= 16 {
		n := 0
		for i, k := range keys {
			if !slices.Contains(keys[:i], k) {
				n++
			}
		}
		return n
	}
	slices.Sort(keys)
	n := 1
	for i := 1; i < len(keys); i++ {
		if keys[i] != keys[i-1] {
			n++
		}
	}
	return n
}

// successorSet gathers the successors of one state, packed, with their
// hashes, to count the distinct ones: two steps that lead to the same
// successor count once. It holds them in buffers of its own (add), or
// reads them where they are (view).
type successorSet struct {
	words int
	// buf and bufHash hold what add gathers; packed and hash are the
	// successors counted: those, or a view.
	buf, bufHash []uint64
	packed       []uint64 // words each
	hash         []uint64
	order        []int32
}

// reset empties the set for the next state, of words words a successor.
func (s *successorSet) reset(words int) {
	if s.buf == nil {
		// A worker writes these at every successor: they share no
		// cache line with another worker's (they grow as slices do
		// past a state of more successors).
		s.buf, s.bufHash = cacheline.Alone[uint64](words*successorsAlone), cacheline.Alone[uint64](successorsAlone)
	}
	s.words, s.buf, s.bufHash = words, s.buf[:0], s.bufHash[:0]
	s.packed, s.hash = s.buf, s.bufHash
}

// successorsAlone is how many successors a successorSet holds before it
// grows.
const successorsAlone = 64

// view makes the set's successors those packed in packed, of the
// hashes hash, which it reads where they are, without copying them,
// until the next reset.
func (s *successorSet) view(packed, hash []uint64) {
	s.packed, s.hash = packed, hash
}

// add gathers a successor, packed, of hash h.
func (s *successorSet) add(packed []uint64, h uint64) {
	s.buf = append(s.buf, packed...)
	s.bufHash = append(s.bufHash, h)
	s.packed, s.hash = s.buf, s.bufHash
}

// distinct is the number of distinct successors gathered: those of equal
// hashes are compared word for word (a few pairwise, more after sorting
// by hash).
func (s *successorSet) distinct() int {
	n := len(s.hash)
	if n < 2 {
		return n
	}
	if n <= 16 {
		// A few: each against the earlier ones, without sorting.
		count := 0
		for i := range n {
			dup := false
			for j := range i {
				if s.hash[j] == s.hash[i] && slices.Equal(s.at(int32(j)), s.at(int32(i))) {
					dup = true
					break
				}
			}
			if !dup {
				count++
			}
		}
		return count
	}
	s.order = s.order[:0]
	for i := range n {
		s.order = append(s.order, int32(i))
	}
	slices.SortFunc(s.order, func(a, b int32) int { return cmp.Compare(s.hash[a], s.hash[b]) })
	count := 0
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && s.hash[s.order[hi]] == s.hash[s.order[lo]] {
			hi++
		}
		// A run of equal hashes: each member counts unless an earlier
		// one of the run has the same words.
		for i := lo; i < hi; i++ {
			if !slices.ContainsFunc(s.order[lo:i], func(j int32) bool { return slices.Equal(s.at(j), s.at(s.order[i])) }) {
				count++
			}
		}
		lo = hi
	}
	return count
}

// at is successor i's packed words.
func (s *successorSet) at(i int32) []uint64 {
	return s.packed[int(i)*s.words : (int(i)+1)*s.words]
}
