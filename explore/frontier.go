package explore

import (
	"fmt"
	"math"
	"os"
)

// segStates is how many states a segment of a frontier holds.
const segStates = 1 << 10

// blockStates is how many states a worker reads from a frontier's file at
// a time (a block of a segment): its cache holds as many.
const blockStates = 1 << 10

// frontier holds the packed states of one level of a search that keeps
// fingerprints, in order, in segments: in memory, or, once the level
// holds more than keep segments (none by default: see bfs.run), on a
// file of its own (created and unlinked at once), from which the workers
// read a block at a time.
// Segments are reused: one written to the file, and those of a level
// reset, serve the next segments.
type frontier struct {
	words int
	// segs[k] is segment k in memory, or nil when it is on the file at
	// offset k times a segment's bytes.
	segs [][]uint64
	// free holds segments to reuse, empty.
	free [][]uint64
	n    int64
	keep int
	file *os.File
	// gen counts the resets: a segment a cache read from the file is
	// the frontier's only while the generation is the same, as the
	// file's segment k is rewritten by the level after.
	gen uint64
}

func newFrontier(words, keep int) *frontier { return &frontier{words: words, keep: keep} }

// segBytes is the size of a segment on the file.
func (f *frontier) segBytes() int64 { return int64(f.words*8) * segStates }

// add appends a state.
func (f *frontier) add(ws []uint64) {
	k, i := int(f.n/segStates), int(f.n%segStates)
	if k == len(f.segs) {
		var seg []uint64
		if last := len(f.free) - 1; last >= 0 {
			seg, f.free = f.free[last], f.free[:last]
		} else {
			seg = make([]uint64, 0, f.words*segStates)
		}
		f.segs = append(f.segs, seg)
	}
	f.segs[k] = append(f.segs[k], ws...)
	f.n++
	if i == segStates-1 && k >= f.keep {
		f.spill(k)
	}
}

// spill writes full segment k to the file and frees it; a segment the
// file does not take stays in memory.
func (f *frontier) spill(k int) {
	if f.file == nil {
		file, err := os.CreateTemp("", "ringcheck-frontier-*")
		if err != nil {
			return
		}
		if err := os.Remove(file.Name()); err != nil {
			file.Close()
			return
		}
		f.file = file
	}
	if writeWords(f.file, f.segs[k], int64(k)*f.segBytes()) != nil {
		return
	}
	f.free = append(f.free, f.segs[k][:0])
	f.segs[k] = nil
}

// segCache is a worker's copy of the last block of a segment it read
// from a frontier's file: which frontier, which of its levels (its
// generation), which segment and which block; and the first failure to
// read one, which stops the search. The two frontiers of a search swap
// at each level, and both reuse their files, so the segment number alone
// does not name the copy.
type segCache struct {
	from  *frontier
	gen   uint64
	seg   int
	block int
	buf   []uint64
	err   error
	// state holds a state decoded from a tree store.
	state []uint64
}

// get returns state i of the level; a state read from the file is valid
// until the cache reads another block.
func (f *frontier) get(i int64, c *segCache) []uint64 {
	k, j := int(i/segStates), int(i%segStates)
	if s := f.segs[k]; s != nil {
		return s[j*f.words : (j+1)*f.words]
	}
	b, j := j/blockStates, j%blockStates
	if c.from != f || c.gen != f.gen || c.seg != k || c.block != b {
		if len(c.buf) != f.words*blockStates {
			c.buf = make([]uint64, f.words*blockStates)
		}
		// Until the block is read, the copy is nobody's.
		c.from = nil
		if err := readWords(f.file, c.buf, int64(k)*f.segBytes()+int64(b*blockStates*f.words*8)); err != nil {
			// Only a full segment goes to the file, so a short read is a
			// failure of the file; the state reads as zeros and the
			// search reports the error.
			c.err = fmt.Errorf("reading back segment %d of a frontier: %w", k, err)
			clear(c.buf)
			return c.buf[j*f.words : (j+1)*f.words]
		}
		c.from, c.gen, c.seg, c.block = f, f.gen, k, b
	}
	return c.buf[j*f.words : (j+1)*f.words]
}

// reset empties the frontier, keeping its file and its segments for the
// next level; the blocks caches hold of it are stale from then on.
func (f *frontier) reset() {
	for _, s := range f.segs {
		if s != nil {
			f.free = append(f.free, s[:0])
		}
	}
	f.segs, f.n = f.segs[:0], 0
	f.gen++
}

// growth is the bytes that adding n more states allocates: the segments
// they start that no segment to reuse serves, as long as the frontier
// keeps fewer than keep+1 segments in memory (the partial one included;
// past keep, each full segment goes to the file and serves the next).
func (f *frontier) growth(n int64) uint64 {
	if f == nil || n <= 0 || f.n%segStates != 0 && f.n%segStates+n <= segStates {
		return 0
	}
	alloc := int((f.n+n+segStates-1)/segStates) - len(f.segs) - len(f.free)
	if f.keep < math.MaxInt {
		inMemory := len(f.free)
		for _, s := range f.segs {
			if s != nil {
				inMemory++
			}
		}
		alloc = min(alloc, f.keep+1-inMemory)
	}
	if alloc <= 0 {
		return 0
	}
	return uint64(alloc) * uint64(f.segBytes())
}

// bytes is the memory the frontier holds, its segments to reuse
// included (0 for none).
func (f *frontier) bytes() int64 {
	if f == nil {
		return 0
	}
	var n int64
	for _, s := range f.segs {
		n += int64(cap(s)) * 8
	}
	for _, s := range f.free {
		n += int64(cap(s)) * 8
	}
	return n
}
