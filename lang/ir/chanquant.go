package ir

import "github.com/ringcheck/ringcheck/lang/syntax"

// MsgQuant is count, sum, forall or exists over the messages in the
// channel from From to To, head first (of type Msg only, when it is
// set). Var ranges over the messages' positions in the channel (0 is the
// head, up to the channels' capacity less one); MsgField reads the fields
// of the message at that position. Pos is the quantifier's position in
// the file, for an overflow of a sum.
type MsgQuant struct {
	Kind     string
	Var      *Local
	From, To Expr
	Msg      *Message
	Body     Expr
	Pos      syntax.Pos
}

// MsgField is field Field of the message a MsgQuant binds: Index[m] is
// the field's index in message type m (-1 when m has no such field, and
// then the value is 0).
type MsgField struct {
	Quant *MsgQuant
	Field string
	Index []int
	T     *Type
}

// Type is int for count and sum, bool for forall and exists.
func (e *MsgQuant) Type() *Type {
	if e.Kind == "forall" || e.Kind == "exists" {
		return boolType
	}
	return intType
}

// Type is the field's type.
func (e *MsgField) Type() *Type { return e.T }

// chanEnds evaluates the processes of q's channel, modulo N.
func chanEnds(q *MsgQuant, env Env) (from, to int) {
	n := env.N()
	return Mod(eval(q.From, env), n), Mod(eval(q.To, env), n)
}

// evalMsgQuant evaluates a quantifier over a channel's messages, binding
// its local to each message's position in turn.
func evalMsgQuant(e *MsgQuant, env Env) int {
	from, to := chanEnds(e, env)
	acc := 0
	if e.Kind == "forall" {
		acc = 1
	}
	qe := &quantEnv{Env: env, local: e.Var}
	for i := 0; ; i++ {
		m, _, ok := env.At(from, to, i)
		if !ok {
			return acc
		}
		if e.Msg != nil && m != e.Msg {
			continue
		}
		qe.value = i
		var done bool
		if acc, done = accumulate(e.Kind, acc, eval(e.Body, qe), e.Pos); done {
			return acc
		}
	}
}
