package explore

import (
	"encoding/binary"
	"os"
	"unsafe"
)

// littleEndian says the machine stores words least significant byte
// first, as the files of the store and the frontiers do: words then go
// to and from the files as they lie in memory, with no buffer.
var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// wordBytes is the bytes of ws, in the machine's order.
func wordBytes[T uint32 | uint64](ws []T) []byte {
	if len(ws) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&ws[0])), len(ws)*int(unsafe.Sizeof(ws[0])))
}

// writeWords writes ws to f at off, little-endian.
func writeWords[T uint32 | uint64](f *os.File, ws []T, off int64) error {
	if littleEndian {
		_, err := f.WriteAt(wordBytes(ws), off)
		return err
	}
	buf := make([]byte, 0, len(ws)*int(unsafe.Sizeof(T(0))))
	for _, w := range ws {
		if unsafe.Sizeof(w) == 8 {
			buf = binary.LittleEndian.AppendUint64(buf, uint64(w))
		} else {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(w))
		}
	}
	_, err := f.WriteAt(buf, off)
	return err
}

// readWords fills ws from f at off, little-endian.
func readWords(f *os.File, ws []uint64, off int64) error {
	if littleEndian {
		_, err := f.ReadAt(wordBytes(ws), off)
		return err
	}
	buf := make([]byte, 8*len(ws))
	if _, err := f.ReadAt(buf, off); err != nil {
		return err
	}
	for i := range ws {
		ws[i] = binary.LittleEndian.Uint64(buf[8*i:])
	}
	return nil
}
