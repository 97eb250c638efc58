// Package ir is the checked form of a ring-language spec for one instance
// (its parameters fixed): every name resolved, every expression typed,
// every constant evaluated, and for each action the variables and channels
// its guard reads and its effect writes. Package lang/check produces it
// from the syntax tree; package lang/compile turns it into a model.System;
// analyses that need to look inside guards and effects (a symbolic
// encoding, an independence relation) read it directly.
//
// Expressions are trees of a few node types. Process indices are
// expressions too, taken modulo N wherever they select a process, and a
// process's neighbours are explicit (Neighbor nodes), so an analysis can
// tell a read of the predecessor from a read of an arbitrary process.
package ir

import (
	"fmt"

	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
)

// Spec is one instance of a spec.
type Spec struct {
	Name, Summary, Source string
	// File is the path of the file the spec was read from, for the
	// positions of problems found after checking (file:line:col).
	File string
	// Params are the declared parameters; Values this instance's.
	Params []Param
	Values map[string]int
	// Topology and N: the communication graph.
	Topology model.TopologyKind
	N        int
	// Peers[p] lists the peers of process p, ascending: the processes
	// linked to it in either direction.
	Peers [][]int
	Vars  []*Var
	// Arrays are the array variables; their entries are in Vars.
	Arrays   []*Array
	Messages []*Message
	// Channels is nil for a state-reading spec.
	Channels *Channels
	// Actions in declaration order; each names the processes that have it.
	Actions []*Action
	// FirstEnabled lists the processes that run only their first enabled
	// protocol or timeout action.
	FirstEnabled []int
	// Inits are the initial effects, per declaration, applied in order to
	// the configuration where every variable holds its initial value.
	Inits      []*Init
	Invariants []*Predicate
	Legitimate *Predicate
	ValidEnd   *Predicate
	// Start is the start predicate (nil: none): a check from start
	// starts from every configuration where it holds.
	Start *Predicate
	// ClosureFrom, when set, narrows closure to the legitimate
	// configurations where it holds (the spec's reading of where L is
	// closed); nil: closure is decided from every configuration of L.
	ClosureFrom *Predicate
	// InitSet, when set, replaces the initial configuration: the
	// initial configurations are every configuration where it holds.
	InitSet           *Predicate
	ProcessPredicates []*ProcessPredicate
	Claims            []Claim
	// Bound is the paper's bound on stabilization time (nil: none).
	Bound *Bound
	// Links is how to run the instance on reliable links (nil: the file
	// declares none).
	Links *Links
	// Checks are the properties checked by default.
	Checks []string
	// Symmetry is the symmetry the file declares, which the checker has
	// proved (nil: none).
	Symmetry *model.Symmetry
}

// Param is a declared parameter.
type Param struct {
	Name              string
	Default, Min, Max int
	Doc               string
}

// Kind is the kind of a value.
type Kind int

// The kinds of values.
const (
	Int Kind = iota
	Bool
	Enum
)

// Type is the type of a value: an integer range, bool, or an enumeration
// (whose values are 0..len(Labels)-1).
type Type struct {
	Kind   Kind
	Lo, Hi int // the values of a variable or field of this type
	Name   string
	Labels []string
}

// Domain is the type's set of values as the model declares them.
func (t *Type) Domain() model.Domain {
	switch t.Kind {
	case Bool:
		return model.Bool()
	case Enum:
		return model.Enum(t.Labels...)
	}
	return model.IntRange(t.Lo, t.Hi)
}

// Var is a process variable.
type Var struct {
	Name string
	Type *Type
	// Procs are the processes that declare it, ascending.
	Procs []int
	// Init is its initial value in each of them.
	Init int
	Doc  string
	Pos  syntax.Pos
	// ID is its index in Spec.Vars.
	ID int
	// Array is the array the variable is an entry of (nil: a variable
	// that holds one value), and Index its index there.
	Array *Array
	Index int
}

// Array is an array variable: one Var per index, declared in the
// processes that have that entry.
type Array struct {
	Name string
	Type *Type
	// Peers: the array is indexed by each process's peers (Lo..Hi is
	// 0..N-1, and a process has the entries of its peers only);
	// otherwise every process that declares it has every index of
	// Lo..Hi.
	Peers  bool
	Lo, Hi int
	// Rows and Cols are the index ranges of a two-dimensional array
	// (Cols nil: an array of one index). Its entry [r][c] has the index
	// (r-Rows.Lo)*Cols.Len()+(c-Cols.Lo) in Lo..Hi, which is then 0 up
	// to the number of entries less one.
	Rows, Cols *Range
	// Elems[i-Lo] is the entry of index i, nil when no process has one.
	Elems []*Var
	Doc   string
	Pos   syntax.Pos
}

// Range is the integers Lo..Hi.
type Range struct{ Lo, Hi int }

// Len returns the number of integers in r.
func (r *Range) Len() int { return r.Hi - r.Lo + 1 }

// String returns r as LO..HI.
func (r *Range) String() string { return fmt.Sprintf("%d..%d", r.Lo, r.Hi) }

// Elem returns the entry of index i, or nil.
func (a *Array) Elem(i int) *Var {
	if i < a.Lo || i > a.Hi {
		return nil
	}
	return a.Elems[i-a.Lo]
}

// Missing describes process p's lack of the entry of index i of a, for
// an error: "process 0 has no entry 3 of a", "process 0 has no entry
// [1][2] of a", or, for an index of a two-dimensional array outside its
// ranges, "process 0 has no entry of a outside [0..1][0..2]".
func (a *Array) Missing(p, i int) string {
	if a.Cols == nil {
		return fmt.Sprintf("process %d has no entry %d of %s", p, i, a.Name)
	}
	if i < a.Lo || i > a.Hi {
		return fmt.Sprintf("process %d has no entry of %s outside [%s][%s]", p, a.Name, a.Rows, a.Cols)
	}
	return fmt.Sprintf("process %d has no entry %s of %s", p, a.EntryName(i), a.Name)
}

// EntryName returns the index i of a as written in a file: "3", or
// "[1][2]" for a two-dimensional array ("outside [0..1][0..2]" for an
// index that is none of its entries).
func (a *Array) EntryName(i int) string {
	if a.Cols == nil {
		return fmt.Sprint(i)
	}
	if i < a.Lo || i > a.Hi {
		return fmt.Sprintf("outside [%s][%s]", a.Rows, a.Cols)
	}
	return fmt.Sprintf("[%d][%d]", a.Rows.Lo+i/a.Cols.Len(), a.Cols.Lo+i%a.Cols.Len())
}

// Set is what a quantifier or a for loop ranges over: the peers of a
// process (Of set), or the integers Lo..Hi.
type Set struct {
	// Of is the process whose peers the set is (nil: Lo..Hi).
	Of Expr
	// Peers is Spec.Peers, for Of.
	Peers  [][]int
	Lo, Hi int
}

// Members returns the set's members when Of is process p (ignored for a
// range).
func (s *Set) Members(p int) []int {
	if s.Of != nil {
		return s.Peers[p]
	}
	out := make([]int, 0, s.Hi-s.Lo+1)
	for i := s.Lo; i <= s.Hi; i++ {
		out = append(out, i)
	}
	return out
}

// Message is a message type. Fields are its scalar fields, an array
// field's entries among them (named NAME[i], consecutive); Arrays lists
// its array fields.
type Message struct {
	Name   string
	Fields []*Field
	Arrays []*FieldArray
	ID     int
	Pos    syntax.Pos
}

// MaxFields is the most fields a message type has: as many fields of
// two values or more as the values of a message type (at most
// model.MaxMessageValues, the product of its fields' domains) allow.
const MaxFields = 20

// Field is a message field.
type Field struct {
	Name string
	Type *Type
}

// Channels is the FIFO channel along every link of the topology.
type Channels struct {
	Capacity int
	Overflow model.Overflow
	// Carry lists the message types the channels carry (all when empty).
	Carry []*Message
}

// Action is an action of a set of processes.
type Action struct {
	Name     string
	Pos      syntax.Pos
	Kind     model.ActionKind
	Liveness model.Liveness
	Procs    []int
	// Choice is the choice parameter of a family of alternatives (nil:
	// one alternative); alternative i binds it to Choice.Lo+i.
	Choice *Local
	// Recv is the message the action receives (nil: none).
	Recv    *Receive
	Guard   Expr
	Effects []Stmt
	// Reads and Writes are what the guard and effects read and write.
	Reads, Writes Access
	// Atomic: the action may assign its peers' variables (AssignAt); the
	// whole action is one step.
	Atomic bool
}

// Local is a name bound in an expression: a choice parameter, a
// quantified process, a for loop's member, a process predicate's process.
// (A received field is not a Local: it is read by a FieldRef.)
type Local struct {
	Name   string
	Type   *Type
	Lo, Hi int
}

// Receive is the head of an action's guard: the channel from From to the
// process holds a message of type Msg at its head; the action receives it.
// Its fields are read by FieldRef expressions. With Any set, Msg is nil
// and the head may be of any type but those of Except.
type Receive struct {
	Msg    *Message
	From   Expr
	Any    bool
	Except []*Message
	// Run, when set, makes the receive take a run of messages (Any is
	// then set, Except holding every type the run does not): see
	// RunRecv.
	Run *RunRecv
}

// Accepts reports whether the receive takes a message of type m at the
// head of its channel.
func (r *Receive) Accepts(m *Message) bool {
	if !r.Any {
		return m == r.Msg
	}
	for _, x := range r.Except {
		if x == m {
			return false
		}
	}
	return true
}

// Access is a set of variables read or written, and of channels, by the
// process relative to which they are accessed.
type Access struct {
	Vars []VarAccess
	// Chans lists channels as (from, to) process expressions.
	Chans []ChanAccess
	// Global is set when an access depends on a process index that is not
	// a constant offset from the acting process (as x[q] for a quantified
	// q): then any process's variable may be read.
	Global bool
}

// VarAccess is variable Var of the process Proc.
type VarAccess struct {
	Var  *Var
	Proc Expr
}

// ChanAccess is the channel from From to To.
type ChanAccess struct {
	From, To Expr
}

// Init is an initial effect of a set of processes, declared at Pos.
type Init struct {
	Procs   []int
	Effects []Stmt
	Pos     syntax.Pos
}

// Predicate is a named state predicate.
type Predicate struct {
	Name, Doc string
	Body      Expr
	// Abstraction marks an invariant on which the model's abstraction of
	// the algorithm rests (model.Predicate.Abstraction).
	Abstraction bool
}

// ProcessPredicate is a named predicate of a process, Param.
type ProcessPredicate struct {
	Name, Doc string
	Param     *Local
	Body      Expr
}

// Claim is a verdict the paper predicts.
type Claim struct {
	Property, Verdict, From, Fairness, Source string
	// Found is what ringcheck finds where it is not the paper's verdict:
	// the other verdict, or "out-of-reach" (empty: it agrees).
	Found  string
	Params map[string]int
	// StartFile, declared at StartPos, is the trace (a path relative to
	// the file's folder, with '/' separators) whose first configuration
	// ringcheck decides the claim from; empty: none.
	StartFile string
	StartPos  syntax.Pos
}

// Bound is the paper's bound on stabilization time: Text as the paper
// gives it, and Rounds the bound in rounds for the instance's parameters
// (0: the file gives none).
type Bound struct {
	Text   string
	Rounds int
}

// Links says how `rounds` runs the instance on its paper's reliable
// links: the parameters Enlarge raises, to the values it gives for the
// instance's parameters, and Fill, the most messages a channel of a
// random configuration holds.
type Links struct {
	Enlarge map[string]int
	Fill    int
}

// Expr is an expression: one of the node types below.
type Expr interface {
	// Type is the expression's type.
	Type() *Type
}

// Const is a constant.
type Const struct {
	Value int
	T     *Type
}

// Self is the acting process.
type Self struct{}

// Neighbor is the predecessor (Offset -1) or successor (Offset +1) of a
// process on the ring.
type Neighbor struct {
	Of     Expr
	Offset int
}

// VarRef is variable Var of process Proc (nil: the acting process).
type VarRef struct {
	Var  *Var
	Proc Expr
}

// ElemRef is entry Index of array Array of process Proc (nil: the acting
// process), for an index that is not a constant (a constant one is a
// VarRef of the entry). Pos is the index's position in the file, for an
// entry found missing when the expression is evaluated.
type ElemRef struct {
	Array       *Array
	Proc, Index Expr
	Pos         syntax.Pos
}

// LocalRef is the value of a local.
type LocalRef struct{ Local *Local }

// FieldRef is field Index of the received message.
type FieldRef struct {
	Recv  *Receive
	Index int
}

// Unary is -X or !X. Pos is the operator's position in the file, for an
// overflow found when the expression is evaluated (the zero Pos for an
// operation the checker derived).
type Unary struct {
	Op  syntax.Token
	X   Expr
	Pos syntax.Pos
}

// Binary is X op Y (arithmetic, comparison or boolean). Pos is the
// operator's position in the file, for a division by zero or an overflow
// found when the expression is evaluated (the zero Pos for an operation the checker
// derived, as abs's comparison).
type Binary struct {
	Op   syntax.Token
	X, Y Expr
	T    *Type
	Pos  syntax.Pos
}

// Cond is if C then X else Y.
type Cond struct {
	C, X, Y Expr
}

// Quant is count, sum, forall or exists over the processes 0..N-1, or
// over Over when it is set. Pos is the quantifier's position in the file,
// for an overflow of a sum found when it is evaluated.
type Quant struct {
	Kind string
	Var  *Local
	Over *Set
	Body Expr
	Pos  syntax.Pos
}

// ChanLen is the number of messages in the channel from From to To, or,
// with Msg set, the number of messages of that type; with Upto set, among
// the first Upto messages only.
type ChanLen struct {
	From, To Expr
	Msg      *Message
	Upto     Expr
}

// ChanPos is the index (from 0, the head) of the first message of type
// Msg in the channel from From to To, or its length if it holds none.
type ChanPos struct {
	From, To Expr
	Msg      *Message
}

// HeadField is field Field of the message at the head of the channel
// from From to To (with First set: of the first message of that type):
// Index[m] is the field's index in message type m (-1 when m has no such
// field). It is 0 when there is no such message or it has no such field.
type HeadField struct {
	From, To Expr
	First    *Message
	Field    string
	Index    []int
	T        *Type
}

// Stmt is an effect.
type Stmt interface{ stmt() }

// Assign sets the acting process's variable Var.
type Assign struct {
	Var   *Var
	Value Expr
}

// AssignElem sets entry Index of the acting process's array Array, for an
// index that is not a constant (a constant one is an Assign of the entry).
// Pos is the index's position in the file, for an entry found missing
// when the effect runs.
type AssignElem struct {
	Array        *Array
	Index, Value Expr
	Pos          syntax.Pos
}

// For runs Body once for each member of Over, ascending, with Var bound
// to it.
type For struct {
	Var  *Local
	Over *Set
	Body []Stmt
}

// Send appends a message to the channel from the acting process to To.
type Send struct {
	Msg  *Message
	Args []Expr
	To   Expr
}

// If runs Then or Else.
type If struct {
	Cond       Expr
	Then, Else []Stmt
}

// Repeat runs Body Count times, 0..MaxRepeat. Pos is the count's
// position in the file, for a count found outside that range when the
// effect runs.
type Repeat struct {
	Count Expr
	Body  []Stmt
	Pos   syntax.Pos
}

// MaxRepeat is the most times a repeat runs its effects in one step.
const MaxRepeat = 1024

// MaxNodes bounds the size of an instance's expressions: the nodes of
// its expressions with every def expanded where it is used (package
// lang/check), and the closures they compile to with every quantifier
// unrolled (package lang/compile).
const MaxNodes = 1 << 20

func (*Assign) stmt()     {}
func (*Send) stmt()       {}
func (*If) stmt()         {}
func (*Repeat) stmt()     {}
func (*AssignElem) stmt() {}
func (*For) stmt()        {}

// The basic types.
var (
	intType  = &Type{Kind: Int}
	boolType = &Type{Kind: Bool, Lo: 0, Hi: 1, Name: "bool"}
)

// IntType is the type of integer expressions.
func IntType() *Type { return intType }

// BoolType is the type of boolean expressions.
func BoolType() *Type { return boolType }

// Type is the constant's type.
func (e *Const) Type() *Type { return e.T }

// Type is int: a process index.
func (*Self) Type() *Type { return intType }

// Type is int: a process index.
func (*Neighbor) Type() *Type { return intType }

// Type is the variable's type.
func (e *VarRef) Type() *Type { return e.Var.Type }

// Type is the array's element type.
func (e *ElemRef) Type() *Type { return e.Array.Type }

// Type is the local's type.
func (e *LocalRef) Type() *Type { return e.Local.Type }

// Type is the field's type.
func (e *FieldRef) Type() *Type { return e.Recv.Msg.Fields[e.Index].Type }

// Type is X's.
func (e *Unary) Type() *Type { return e.X.Type() }

// Type is the result's type.
func (e *Binary) Type() *Type { return e.T }

// Type is X's.
func (e *Cond) Type() *Type { return e.X.Type() }

// Type is int for count and sum, bool for forall and exists.
func (e *Quant) Type() *Type {
	if e.Kind == "forall" || e.Kind == "exists" {
		return boolType
	}
	return intType
}

// Type is int.
func (*ChanLen) Type() *Type { return intType }

// Type is the field's type.
func (e *HeadField) Type() *Type { return e.T }

// Type is int.
func (*ChanPos) Type() *Type { return intType }

// Negated rewrites !(x op y), for a comparison op, as x op' y; false for
// any other expression.
func Negated(e *Unary) (Expr, bool) {
	bin, ok := e.X.(*Binary)
	if e.Op != syntax.Not || !ok {
		return nil, false
	}
	var op syntax.Token
	switch bin.Op {
	case syntax.Eq:
		op = syntax.Neq
	case syntax.Neq:
		op = syntax.Eq
	case syntax.Lt:
		op = syntax.Ge
	case syntax.Ge:
		op = syntax.Lt
	case syntax.Gt:
		op = syntax.Le
	case syntax.Le:
		op = syntax.Gt
	default:
		return nil, false
	}
	return &Binary{Op: op, X: bin.X, Y: bin.Y, T: bin.T}, true
}
