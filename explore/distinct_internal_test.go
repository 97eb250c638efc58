package explore

import "testing"

// TestSuccessorSetComparesWords: successors of equal hashes count once
// only when their words are equal too.
func TestSuccessorSetComparesWords(t *testing.T) {
	var s successorSet
	s.reset(2)
	s.add([]uint64{1, 2}, 9)
	s.add([]uint64{3, 4}, 9) // same hash, other words
	s.add([]uint64{1, 2}, 9) // the first again
	s.add([]uint64{5, 6}, 1)
	s.add([]uint64{5, 6}, 1)
	if got := s.distinct(); got != 3 {
		t.Fatalf("%d distinct successors, want 3", got)
	}
	s.reset(2)
	if got := s.distinct(); got != 0 {
		t.Fatalf("%d distinct successors after reset, want 0", got)
	}
}
