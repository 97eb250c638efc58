package model

// The bounds of the message alphabet: a channel holds letters, each
// message an index into the enumeration of every value of every message
// type (each type's values the product of its fields' domains).
const (
	// MaxMessageValues is the most values a message type has.
	MaxMessageValues = 1 << 20
	// MaxAlphabet is the most letters the alphabet has: the values of
	// every message type.
	MaxAlphabet = 1 << 22
)
