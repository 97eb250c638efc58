// Package input reads the files a user hands ringcheck (a .ring spec, a
// trace, a regression manifest) with a bound on their size: a file larger
// than the bound, or one that never ends such as /dev/zero, is an error
// that names the file and the bound, after reading at most one byte past
// the bound, instead of a heap that grows until the kernel kills the
// process.
package input

import (
	"fmt"
	"io"
	"os"
)

// TooLargeError is the error of a read that found more bytes than its
// bound.
type TooLargeError struct {
	// Name is the file read (its path, or what the reader was).
	Name string
	// What is the kind of file the bound is for, as "a trace".
	What string
	// Limit is the bound, in bytes.
	Limit int64
}

// Error says which file is too large and what the bound is, as
// "big.json is larger than 256 MiB, the most ringcheck reads from a
// trace".
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %s, the most ringcheck reads from %s", e.Name, Size(e.Limit), e.What)
}

// ReadFile reads the file at path, at most limit bytes of it: a longer
// file (a regular file whose size says so, or any file that still has
// bytes after limit of them) is a *TooLargeError naming path and what
// the file is for (as "a trace"). Other errors are os.Open's and the
// read's.
func ReadFile(path string, limit int64, what string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > limit {
		return nil, &TooLargeError{Name: path, What: what, Limit: limit}
	}
	return ReadAll(f, path, limit, what)
}

// ReadAll reads r to its end, at most limit bytes of it: reading limit+1
// bytes is a *TooLargeError naming name and what.
func ReadAll(r io.Reader, name string, limit int64, what string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{Name: name, What: what, Limit: limit}
	}
	return data, nil
}

// Size writes a bound in bytes as the documentation gives it: in MiB or
// KiB when it is a whole number of them ("16 MiB"), in bytes otherwise.
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
