package input

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// endless is a reader that never ends, counting the bytes read from it.
type endless struct{ read int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	e.read += int64(len(p))
	return len(p), nil
}

// TestReadFile: a file of the bound is read whole; one byte more is an
// error naming the file and the bound.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	at, over := filepath.Join(dir, "at"), filepath.Join(dir, "over")
	if err := os.WriteFile(at, []byte(strings.Repeat("a", 1024)), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(over, []byte(strings.Repeat("a", 1025)), 0o666); err != nil {
		t.Fatal(err)
	}
	data, err := ReadFile(at, 1024, "a test file")
	if err != nil || len(data) != 1024 {
		t.Fatalf("ReadFile(at) = %d bytes, %v; want 1024 bytes", len(data), err)
	}
	_, err = ReadFile(over, 1024, "a test file")
	var tl *TooLargeError
	if !errors.As(err, &tl) {
		t.Fatalf("ReadFile(over) = %v, want a *TooLargeError", err)
	}
	if want := over + " is larger than 1 KiB, the most ringcheck reads from a test file"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing"), 1024, "a test file"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile(missing) = %v, want a not-exist error", err)
	}
}

// TestReadAllEndless: a reader that never ends is read up to one byte
// past the bound, then refused.
func TestReadAllEndless(t *testing.T) {
	r := &endless{}
	_, err := ReadAll(r, "the stream", 100, "a test file")
	if want := "the stream is larger than 100 bytes, the most ringcheck reads from a test file"; err == nil || err.Error() != want {
		t.Fatalf("ReadAll = %v, want %q", err, want)
	}
	if r.read > 100+512 {
		t.Errorf("read %d bytes of an endless reader with a bound of 100", r.read)
	}
}

// TestReadFileDevZero: /dev/zero, a file that never ends and has no size,
// is refused at the bound.
func TestReadFileDevZero(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	_, err := ReadFile("/dev/zero", 1<<20, "a test file")
	if want := "/dev/zero is larger than 1 MiB, the most ringcheck reads from a test file"; err == nil || err.Error() != want {
		t.Fatalf("ReadFile(/dev/zero) = %v, want %q", err, want)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{16 << 20: "16 MiB", 256 << 20: "256 MiB", 2048: "2 KiB", 1500: "1500 bytes", 0: "0 bytes"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
