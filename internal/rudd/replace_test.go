package rudd

import (
	"sync"
	"testing"
)

// TestReplacersArePerBDD: the identifiers that key a BDD's replace cache
// are counted per BDD, not in a variable of the package: two BDDs made
// one after the other give their first replacers the same identifier, and
// BDDs made on goroutines of their own each replace correctly.
func TestReplacersArePerBDD(t *testing.T) {
	first := func() int {
		b, err := New(4)
		if err != nil {
			t.Fatal(err)
		}
		r, err := b.NewReplacer([]int{0}, []int{1})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.NewReplacer([]int{2}, []int{3}); err != nil {
			t.Fatal(err)
		}
		return r.Id()
	}
	if a, b := first(), first(); a != b {
		t.Errorf("the first replacers of two BDDs have identifiers %d and %d", a, b)
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, err := New(4)
			if err != nil {
				t.Error(err)
				return
			}
			for i := 0; i < 100; i++ {
				r, err := b.NewReplacer([]int{0, 2}, []int{1, 3})
				if err != nil {
					t.Error(err)
					return
				}
				got := b.Replace(b.And(b.Ithvar(0), b.NIthvar(2)), r)
				if want := b.And(b.Ithvar(1), b.NIthvar(3)); !b.Equal(got, want) {
					t.Errorf("replacing x0, x2 by x1, x3 in x0 ∧ ¬x2 does not give x1 ∧ ¬x3")
					return
				}
			}
		}()
	}
	wg.Wait()
}
