package explore

import (
	"encoding/binary"
	"fmt"
	"os"
)

// segStates is how many states a segment of a frontier holds.
const segStates = 1 << 14

// frontier holds the packed states of one level of a search that keeps
// fingerprints, in order, in segments: in memory, or, once the level
// holds more than keep segments, on a file of its own (created and
// unlinked at once), from which the workers read a segment at a time.
type frontier struct {
	words int
	// segs[k] is segment k in memory, or nil when it is on the file at
	// offset k times a segment's bytes.
	segs [][]uint64
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
		f.segs = append(f.segs, make([]uint64, 0, f.words*segStates))
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
	buf := make([]byte, 0, f.segBytes())
	for _, w := range f.segs[k] {
		buf = binary.LittleEndian.AppendUint64(buf, w)
	}
	if _, err := f.file.WriteAt(buf, int64(k)*f.segBytes()); err != nil {
		return
	}
	f.segs[k] = nil
}

// segCache is a worker's copy of the last segment it read from a
// frontier's file: which frontier, which of its levels (its generation)
// and which segment; and the first failure to read one, which stops the
// search. The two frontiers of a search swap at each level, and both
// reuse their files, so the segment number alone does not name the
// copy.
type segCache struct {
	from *frontier
	gen  uint64
	seg  int
	buf  []uint64
	raw  []byte
	err  error
}

// get returns state i of the level; a state read from the file is valid
// until the cache reads another segment.
func (f *frontier) get(i int64, c *segCache) []uint64 {
	k, j := int(i/segStates), int(i%segStates)
	if s := f.segs[k]; s != nil {
		return s[j*f.words : (j+1)*f.words]
	}
	if c.from != f || c.gen != f.gen || c.seg != k {
		if int64(len(c.raw)) != f.segBytes() {
			c.raw = make([]byte, f.segBytes())
			c.buf = make([]uint64, f.words*segStates)
		}
		// Until the segment is read, the copy is nobody's.
		c.from = nil
		if _, err := f.file.ReadAt(c.raw, int64(k)*f.segBytes()); err != nil {
			// Only a full segment goes to the file, so a short read is a
			// failure of the file; the state reads as zeros and the
			// search reports the error.
			c.err = fmt.Errorf("reading back segment %d of a frontier: %w", k, err)
			clear(c.buf)
			return c.buf[j*f.words : (j+1)*f.words]
		}
		for w := range c.buf {
			c.buf[w] = binary.LittleEndian.Uint64(c.raw[8*w:])
		}
		c.from, c.gen, c.seg = f, f.gen, k
	}
	return c.buf[j*f.words : (j+1)*f.words]
}

// reset empties the frontier, keeping its file for the next level; the
// segments caches hold of it are stale from then on.
func (f *frontier) reset() {
	f.segs, f.n = f.segs[:0], 0
	f.gen++
}

// bytes is the memory the frontier holds (0 for none).
func (f *frontier) bytes() int64 {
	if f == nil {
		return 0
	}
	var n int64
	for _, s := range f.segs {
		n += int64(cap(s)) * 8
	}
	return n
}
