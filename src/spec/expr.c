/*
 * expr.c - the C-subset expressions of isaspec: parsing into a small
 * tree, and evaluation with int64 wrap-around semantics.
 *
 * The text is what Mesa's generator pastes into C, so the grammar is C's
 * (precedence, associativity, literals, comments); only {FIELD}
 * references and ISA_GPU_ID() are added.  Hostile input must never crash
 * us: the tree height and the parser's recursion are both capped at
 * SPEC_MAX_AST_DEPTH, and every allocation is proportional to the text.
 *
 * The tree lives in one array of nodes addressed by index, so freeing is
 * one call and no error path can leak a half-built subtree.
 */
#include "spec.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ the tree */

/* The operators are spec.h's spec_expr_op: the tree is what spec_expr_fold shows. */
typedef spec_expr_op expr_op;

/* A node's index in spec_expr.nodes.  32 bits keep nodes small; the
 * parser refuses text of 4 GiB or more, and every node takes at least
 * one byte of text, so indices always fit. */
typedef uint32_t expr_id;

typedef struct expr_node {
	expr_op op;
	uint32_t height;     /* 1 for a leaf; never above SPEC_MAX_AST_DEPTH */
	union {
		expr_id kid[3];  /* operators */
		int64_t value;   /* SPEC_OP_NUM: the value; SPEC_OP_FIELD: index into refs */
	};
} expr_node;

struct spec_expr {
	char *text;        /* owned copy, exactly as given */
	expr_node *nodes;
	expr_id root;
	char **refs;       /* distinct field names, first appearance first */
	size_t nrefs;
	bool uses_gpu_id;
	spec_loc loc;      /* where the text starts, for evaluation errors */
};

/* Index returned by the parser on failure. */
#define EXPR_NONE UINT32_MAX

/* ------------------------------------------------------------ tokens */

typedef enum expr_tok_kind {
	TOK_END,
	TOK_BAD,    /* a character that starts no token; the parser reports it */
	TOK_NUM,
	TOK_FIELD,
	TOK_IDENT,
	TOK_LPAREN, TOK_RPAREN, TOK_QUESTION, TOK_COLON,
	TOK_NOT, TOK_TILDE, TOK_STAR, TOK_SLASH, TOK_PERCENT,
	TOK_PLUS, TOK_MINUS, TOK_SHL, TOK_SHR,
	TOK_LT, TOK_GT, TOK_LE, TOK_GE, TOK_EQ, TOK_NE,
	TOK_AMP, TOK_CARET, TOK_PIPE, TOK_ANDAND, TOK_OROR,
} expr_tok_kind;

typedef struct expr_tok {
	expr_tok_kind kind;
	size_t start, end;  /* byte offsets in the text */
	uint64_t value;     /* TOK_NUM */
} expr_tok;

typedef struct expr_parser {
	const char *text;
	size_t len;
	size_t pos;         /* lexer position: just after tok */
	expr_tok tok;       /* the one token of look-ahead */
	spec_loc loc;
	spec_diags *diags;
	bool failed;        /* a diagnostic was added; add no other */

	expr_node *nodes;
	expr_id nnodes, cap;

	char **refs;
	size_t nrefs, refs_cap;
	size_t *ref_hash;   /* open addressing: ref index + 1, 0 = empty */
	size_t hash_cap;    /* a power of two, kept over twice nrefs */
	bool uses_gpu_id;
} expr_parser;

/* ------------------------------------------------------- diagnostics */

/* Maps a byte offset of the text to a file location: columns count
 * from loc.col on the first line and from 1 on later ones. */
static spec_loc expr_offset_loc(const expr_parser *p, size_t off)
{
	spec_loc l = p->loc;
	if (l.line == 0)
		return (spec_loc){.file = l.file, .line = 0, .col = 0};
	size_t line_start = 0;
	unsigned lines = 0;
	for (size_t i = 0; i < off && i < p->len; i++) {
		if (p->text[i] == '\n') {
			lines++;
			line_start = i + 1;
		}
	}
	size_t col;
	if (lines == 0)
		col = l.col ? (size_t)l.col + off : 0;
	else
		col = 1 + (off - line_start);
	l.line = l.line + lines < l.line ? (unsigned)-1 : l.line + lines;
	l.col = col > (unsigned)-1 ? (unsigned)-1 : (unsigned)col;
	return l;
}

/* Reports the parse's one error; later calls are ignored so a failure
 * propagating up the parser cannot add a second, misleading message. */
__attribute__((format(printf, 3, 4)))
static void expr_error(expr_parser *p, size_t off, const char *fmt, ...)
{
	if (p->failed)
		return;
	p->failed = true;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (p->diags)
		spec_diag_add(p->diags, SPEC_ERROR, "expr-syntax",
		              expr_offset_loc(p, off), "%s", msg);
}

/* Describes a token for "found ..." in messages, quoting its text
 * (shortened when long, raw bytes shown in hex). */
static void expr_tok_describe(const expr_parser *p, const expr_tok *t,
                              char *buf, size_t len)
{
	if (t->kind == TOK_END) {
		snprintf(buf, len, "end of expression");
		return;
	}
	unsigned char c = (unsigned char)p->text[t->start];
	if (t->kind == TOK_BAD && (c < 0x20 || c >= 0x7f)) {
		snprintf(buf, len, "byte 0x%02x", c);
		return;
	}
	size_t n = t->end - t->start;
	const size_t max = 40;
	snprintf(buf, len, "'%.*s%s'", (int)(n > max ? max : n),
	         p->text + t->start, n > max ? "..." : "");
}

/* The common "expected X but found <current token>" error. */
static void expr_expected(expr_parser *p, const char *what)
{
	char found[64];
	expr_tok_describe(p, &p->tok, found, sizeof found);
	expr_error(p, p->tok.start, "expected %s but found %s", what, found);
}

/* ------------------------------------------------------------- lexer */

static bool expr_is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static bool expr_is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* Skips white space and C comments.  False (after reporting) on an
 * unterminated block comment. */
static bool expr_skip_space(expr_parser *p)
{
	for (;;) {
		char c = p->text[p->pos];
		if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
			p->pos++;
		} else if (c == '/' && p->text[p->pos + 1] == '*') {
			const char *end = strstr(p->text + p->pos + 2, "*/");
			if (!end) {
				expr_error(p, p->pos, "unterminated comment: expected '*/' "
				           "but found end of expression");
				return false;
			}
			p->pos = (size_t)(end - p->text) + 2;
		} else if (c == '/' && p->text[p->pos + 1] == '/') {
			while (p->text[p->pos] && p->text[p->pos] != '\n')
				p->pos++;
		} else {
			return true;
		}
	}
}

/* Whether s[0..n) is a valid C integer suffix: at most one u/U and at
 * most one of l, L, ll, LL, in either order. */
static bool expr_valid_suffix(const char *s, size_t n)
{
	bool has_u = false, has_l = false;
	size_t i = 0;
	while (i < n) {
		if ((s[i] == 'u' || s[i] == 'U') && !has_u) {
			has_u = true;
			i++;
		} else if ((s[i] == 'l' || s[i] == 'L') && !has_l) {
			has_l = true;
			i += (i + 1 < n && s[i + 1] == s[i]) ? 2 : 1;
		} else {
			return false;
		}
	}
	return true;
}

static unsigned expr_digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return (unsigned)(c - '0');
	if (c >= 'a' && c <= 'f')
		return (unsigned)(c - 'a' + 10);
	if (c >= 'A' && c <= 'F')
		return (unsigned)(c - 'A' + 10);
	return 99;
}

/* Lexes an integer literal at p->pos into p->tok. */
static bool expr_lex_number(expr_parser *p)
{
	const char *s = p->text;
	size_t start = p->pos, i = start;
	unsigned base = 10;
	if (s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		base = 16;
		i += 2;
		if (expr_digit_value(s[i]) >= 16) {
			expr_tok bad = {.kind = s[i] ? TOK_BAD : TOK_END,
			                .start = i, .end = s[i] ? i + 1 : i};
			char found[64];
			expr_tok_describe(p, &bad, found, sizeof found);
			expr_error(p, i, "expected a hexadecimal digit after '%.2s' "
			           "but found %s", s + start, found);
			return false;
		}
	} else if (s[i] == '0') {
		base = 8;
	}
	uint64_t v = 0;
	bool overflow = false;
	/* Decimal digits are scanned in every base so that "09" is reported
	 * as a bad octal digit rather than as a suffix. */
	for (; base == 16 ? expr_digit_value(s[i]) < 16 : (s[i] >= '0' && s[i] <= '9'); i++) {
		unsigned d = expr_digit_value(s[i]);
		if (d >= base) {
			expr_error(p, i, "expected an octal digit (0-7) but found '%c'", s[i]);
			return false;
		}
		if (v > (UINT64_MAX - d) / base)
			overflow = true;
		v = v * base + d;
	}
	size_t digits_end = i;
	while (expr_is_name_char(s[i]))
		i++;
	if (!expr_valid_suffix(s + digits_end, i - digits_end)) {
		expr_error(p, digits_end, "invalid suffix '%.*s' on integer literal",
		           (int)(i - digits_end), s + digits_end);
		return false;
	}
	if (overflow) {
		expr_error(p, start, "integer literal '%.*s' does not fit in 64 bits",
		           (int)(i - start), s + start);
		return false;
	}
	p->tok = (expr_tok){.kind = TOK_NUM, .start = start, .end = i, .value = v};
	p->pos = i;
	return true;
}

/* Lexes {NAME} at p->pos. */
static bool expr_lex_field(expr_parser *p)
{
	const char *s = p->text;
	size_t start = p->pos, i = start + 1;
	while (expr_is_name_char(s[i]))
		i++;
	if (i == start + 1 || s[i] != '}') {
		expr_tok bad = {.kind = s[i] ? TOK_BAD : TOK_END,
		                .start = i, .end = s[i] ? i + 1 : i};
		char found[64];
		expr_tok_describe(p, &bad, found, sizeof found);
		expr_error(p, i, "expected %s in field reference but found %s",
		           i == start + 1 ? "a field name ([A-Za-z0-9_]+)" : "'}'",
		           found);
		return false;
	}
	p->tok = (expr_tok){.kind = TOK_FIELD, .start = start, .end = i + 1};
	p->pos = i + 1;
	return true;
}

/* Punctuators, longest first so "<<" wins over "<".  "--" and "++" are
 * deliberately not tokens: with no variables there is nothing to
 * decrement, so they read as two signs (C would reject them). */
static const struct {
	const char *text;
	expr_tok_kind kind;
} expr_puncts[] = {
	{"<<", TOK_SHL}, {">>", TOK_SHR}, {"<=", TOK_LE}, {">=", TOK_GE},
	{"==", TOK_EQ}, {"!=", TOK_NE}, {"&&", TOK_ANDAND}, {"||", TOK_OROR},
	{"(", TOK_LPAREN}, {")", TOK_RPAREN}, {"?", TOK_QUESTION}, {":", TOK_COLON},
	{"!", TOK_NOT}, {"~", TOK_TILDE}, {"*", TOK_STAR}, {"/", TOK_SLASH},
	{"%", TOK_PERCENT}, {"+", TOK_PLUS}, {"-", TOK_MINUS}, {"<", TOK_LT},
	{">", TOK_GT}, {"&", TOK_AMP}, {"^", TOK_CARET}, {"|", TOK_PIPE},
};

/* Reads the next token into p->tok.  False (after reporting) on a
 * lexical error; an unknown character becomes TOK_BAD instead, so the
 * parser can say what it expected there. */
static bool expr_next(expr_parser *p)
{
	if (p->failed || !expr_skip_space(p))
		return false;
	const char *s = p->text + p->pos;
	size_t start = p->pos;
	if (*s == '\0') {
		p->tok = (expr_tok){.kind = TOK_END, .start = start, .end = start};
		return true;
	}
	if (*s >= '0' && *s <= '9')
		return expr_lex_number(p);
	if (*s == '{')
		return expr_lex_field(p);
	if (expr_is_ident_start(*s)) {
		size_t i = start;
		while (expr_is_name_char(p->text[i]))
			i++;
		p->tok = (expr_tok){.kind = TOK_IDENT, .start = start, .end = i};
		p->pos = i;
		return true;
	}
	for (size_t k = 0; k < sizeof expr_puncts / sizeof expr_puncts[0]; k++) {
		size_t n = strlen(expr_puncts[k].text);
		if (strncmp(s, expr_puncts[k].text, n) == 0) {
			p->tok = (expr_tok){.kind = expr_puncts[k].kind,
			                    .start = start, .end = start + n};
			p->pos = start + n;
			return true;
		}
	}
	p->tok = (expr_tok){.kind = TOK_BAD, .start = start, .end = start + 1};
	p->pos = start + 1;
	return true;
}

/* Consumes the current token if it is of kind k; otherwise reports
 * "expected <what>". */
static bool expr_expect(expr_parser *p, expr_tok_kind k, const char *what)
{
	if (p->tok.kind != k) {
		expr_expected(p, what);
		return false;
	}
	return expr_next(p);
}

/* ------------------------------------------------------ tree building */

static void expr_too_deep(expr_parser *p, size_t off)
{
	expr_error(p, off, "expression too deeply nested");
}

static void expr_out_of_memory(expr_parser *p)
{
	expr_error(p, p->tok.start, "out of memory");
}

/* Appends a node with kids a, b, c (EXPR_NONE when absent); its height
 * is checked here so that no tree taller than SPEC_MAX_AST_DEPTH is
 * ever built (a long chain "1+1+1..." grows only here, not in the
 * parser's recursion).  off locates the error. */
static expr_id expr_add_node(expr_parser *p, expr_op op,
                             expr_id a, expr_id b, expr_id c, size_t off)
{
	uint32_t h = 0;
	expr_id kids[3] = {a, b, c};
	for (int i = 0; i < 3; i++)
		if (kids[i] != EXPR_NONE && p->nodes[kids[i]].height > h)
			h = p->nodes[kids[i]].height;
	if (h + 1 > SPEC_MAX_AST_DEPTH) {
		expr_too_deep(p, off);
		return EXPR_NONE;
	}
	if (p->nnodes == p->cap) {
		/* Cannot overflow: nnodes is below the text length. */
		expr_id cap = p->cap ? p->cap * 2 : 16;
		expr_node *nodes = realloc(p->nodes, (size_t)cap * sizeof *nodes);
		if (!nodes) {
			expr_out_of_memory(p);
			return EXPR_NONE;
		}
		p->nodes = nodes;
		p->cap = cap;
	}
	p->nodes[p->nnodes] = (expr_node){.op = op, .height = h + 1, .kid = {a, b, c}};
	return p->nnodes++;
}

/* Appends a leaf holding value. */
static expr_id expr_add_leaf(expr_parser *p, expr_op op, int64_t value, size_t off)
{
	expr_id n = expr_add_node(p, op, EXPR_NONE, EXPR_NONE, EXPR_NONE, off);
	if (n != EXPR_NONE)
		p->nodes[n].value = value;
	return n;
}

static size_t expr_hash_name(const char *s, size_t n)
{
	size_t h = 2166136261u; /* FNV-1a */
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* Doubles the hash table and re-inserts every ref. */
static bool expr_hash_grow(expr_parser *p)
{
	size_t cap = p->hash_cap ? p->hash_cap * 2 : 16;
	size_t *table = calloc(cap, sizeof *table);
	if (!table)
		return false;
	for (size_t r = 0; r < p->nrefs; r++) {
		size_t i = expr_hash_name(p->refs[r], strlen(p->refs[r])) & (cap - 1);
		while (table[i])
			i = (i + 1) & (cap - 1);
		table[i] = r + 1;
	}
	free(p->ref_hash);
	p->ref_hash = table;
	p->hash_cap = cap;
	return true;
}

/* Returns the index of field name s[0..n) in refs, adding it when new
 * (EXPR_NONE when out of memory).  Hashed because hostile text may hold
 * a million distinct names.  Indices fit in expr_id: each name takes
 * at least three bytes of text. */
static expr_id expr_intern_ref(expr_parser *p, const char *s, size_t n)
{
	if (p->nrefs * 2 >= p->hash_cap && !expr_hash_grow(p))
		return EXPR_NONE;
	size_t i = expr_hash_name(s, n) & (p->hash_cap - 1);
	for (; p->ref_hash[i]; i = (i + 1) & (p->hash_cap - 1)) {
		const char *r = p->refs[p->ref_hash[i] - 1];
		if (strncmp(r, s, n) == 0 && r[n] == '\0')
			return (expr_id)(p->ref_hash[i] - 1);
	}
	char **refs = spec_grow(p->refs, p->nrefs + 1, &p->refs_cap, sizeof *refs, 8);
	if (!refs)
		return EXPR_NONE;
	p->refs = refs;
	char *name = malloc(n + 1);
	if (!name)
		return EXPR_NONE;
	memcpy(name, s, n);
	name[n] = '\0';
	p->refs[p->nrefs] = name;
	p->ref_hash[i] = ++p->nrefs;
	return (expr_id)(p->nrefs - 1);
}

/* ------------------------------------------------------------ parser */

/* Every parse function takes nest, the parser's recursion depth, and
 * refuses to go past SPEC_MAX_AST_DEPTH: parentheses add no tree height
 * but do recurse, so the node height check alone would not protect the
 * C stack. */
static expr_id expr_parse_cond(expr_parser *p, unsigned nest);

static expr_id expr_parse_gpu_id(expr_parser *p)
{
	size_t start = p->tok.start;
	if (!expr_next(p) ||
	    !expr_expect(p, TOK_LPAREN, "'(' after 'ISA_GPU_ID'") ||
	    !expr_expect(p, TOK_RPAREN, "')' after 'ISA_GPU_ID(' (it takes no arguments)"))
		return EXPR_NONE;
	p->uses_gpu_id = true;
	return expr_add_leaf(p, SPEC_OP_GPU_ID, 0, start);
}

static expr_id expr_parse_primary(expr_parser *p, unsigned nest)
{
	expr_tok t = p->tok;
	switch (t.kind) {
	case TOK_NUM: {
		/* Two's complement reinterpretation without relying on the
		 * implementation-defined conversion of large uint64 values. */
		int64_t v = t.value <= INT64_MAX ? (int64_t)t.value
		                                 : -(int64_t)(~t.value) - 1;
		expr_id n = expr_add_leaf(p, SPEC_OP_NUM, v, t.start);
		return n != EXPR_NONE && expr_next(p) ? n : EXPR_NONE;
	}
	case TOK_FIELD: {
		expr_id r = expr_intern_ref(p, p->text + t.start + 1, t.end - t.start - 2);
		if (r == EXPR_NONE) {
			expr_out_of_memory(p);
			return EXPR_NONE;
		}
		expr_id n = expr_add_leaf(p, SPEC_OP_FIELD, (int64_t)r, t.start);
		return n != EXPR_NONE && expr_next(p) ? n : EXPR_NONE;
	}
	case TOK_IDENT:
		if (t.end - t.start == 10 && strncmp(p->text + t.start, "ISA_GPU_ID", 10) == 0)
			return expr_parse_gpu_id(p);
		expr_error(p, t.start, "unknown identifier '%.*s' (write {%.*s} for a field)",
		           (int)(t.end - t.start), p->text + t.start,
		           (int)(t.end - t.start), p->text + t.start);
		return EXPR_NONE;
	case TOK_LPAREN: {
		if (!expr_next(p))
			return EXPR_NONE;
		expr_id n = expr_parse_cond(p, nest + 1);
		if (n == EXPR_NONE || !expr_expect(p, TOK_RPAREN, "')'"))
			return EXPR_NONE;
		return n;
	}
	default:
		expr_expected(p, "an operand");
		return EXPR_NONE;
	}
}

static expr_id expr_parse_unary(expr_parser *p, unsigned nest)
{
	if (nest > SPEC_MAX_AST_DEPTH) {
		expr_too_deep(p, p->tok.start);
		return EXPR_NONE;
	}
	expr_op op;
	switch (p->tok.kind) {
	case TOK_NOT: op = SPEC_OP_NOT; break;
	case TOK_TILDE: op = SPEC_OP_BITNOT; break;
	case TOK_MINUS: op = SPEC_OP_NEG; break;
	case TOK_PLUS: op = SPEC_OP_POS; break;
	default: return expr_parse_primary(p, nest);
	}
	size_t start = p->tok.start;
	if (!expr_next(p))
		return EXPR_NONE;
	expr_id a = expr_parse_unary(p, nest + 1);
	if (a == EXPR_NONE)
		return EXPR_NONE;
	return expr_add_node(p, op, a, EXPR_NONE, EXPR_NONE, start);
}

/* C's binary operators: precedence (higher binds tighter; 0 = not a
 * binary operator) and the node each builds.  All are left-associative. */
static int expr_binary_prec(expr_tok_kind k, expr_op *op)
{
	switch (k) {
	case TOK_STAR: *op = SPEC_OP_MUL; return 10;
	case TOK_SLASH: *op = SPEC_OP_DIV; return 10;
	case TOK_PERCENT: *op = SPEC_OP_MOD; return 10;
	case TOK_PLUS: *op = SPEC_OP_ADD; return 9;
	case TOK_MINUS: *op = SPEC_OP_SUB; return 9;
	case TOK_SHL: *op = SPEC_OP_SHL; return 8;
	case TOK_SHR: *op = SPEC_OP_SHR; return 8;
	case TOK_LT: *op = SPEC_OP_LT; return 7;
	case TOK_GT: *op = SPEC_OP_GT; return 7;
	case TOK_LE: *op = SPEC_OP_LE; return 7;
	case TOK_GE: *op = SPEC_OP_GE; return 7;
	case TOK_EQ: *op = SPEC_OP_EQ; return 6;
	case TOK_NE: *op = SPEC_OP_NE; return 6;
	case TOK_AMP: *op = SPEC_OP_BITAND; return 5;
	case TOK_CARET: *op = SPEC_OP_BITXOR; return 4;
	case TOK_PIPE: *op = SPEC_OP_BITOR; return 3;
	case TOK_ANDAND: *op = SPEC_OP_AND; return 2;
	case TOK_OROR: *op = SPEC_OP_OR; return 1;
	default: return 0;
	}
}

/* Precedence climbing: operators of the same level loop here (left
 * associativity); only a tighter operator on the right recurses. */
static expr_id expr_parse_binary(expr_parser *p, int min_prec, unsigned nest)
{
	if (nest > SPEC_MAX_AST_DEPTH) {
		expr_too_deep(p, p->tok.start);
		return EXPR_NONE;
	}
	expr_id lhs = expr_parse_unary(p, nest);
	for (;;) {
		if (lhs == EXPR_NONE)
			return EXPR_NONE;
		expr_op op;
		int prec = expr_binary_prec(p->tok.kind, &op);
		if (prec == 0 || prec < min_prec)
			return lhs;
		size_t start = p->tok.start;
		if (!expr_next(p))
			return EXPR_NONE;
		expr_id rhs = expr_parse_binary(p, prec + 1, nest + 1);
		if (rhs == EXPR_NONE)
			return EXPR_NONE;
		lhs = expr_add_node(p, op, lhs, rhs, EXPR_NONE, start);
	}
}

/* cond ? a : b, right-associative; as in C the middle operand may be
 * any expression and the last another conditional. */
static expr_id expr_parse_cond(expr_parser *p, unsigned nest)
{
	expr_id c = expr_parse_binary(p, 1, nest);
	if (c == EXPR_NONE || p->tok.kind != TOK_QUESTION)
		return c;
	size_t start = p->tok.start;
	if (!expr_next(p))
		return EXPR_NONE;
	expr_id a = expr_parse_cond(p, nest + 1);
	if (a == EXPR_NONE || !expr_expect(p, TOK_COLON, "':'"))
		return EXPR_NONE;
	expr_id b = expr_parse_cond(p, nest + 1);
	if (b == EXPR_NONE)
		return EXPR_NONE;
	return expr_add_node(p, SPEC_OP_COND, c, a, b, start);
}

static void expr_parser_free(expr_parser *p)
{
	for (size_t i = 0; i < p->nrefs; i++)
		free(p->refs[i]);
	free(p->refs);
	free(p->nodes);
	free(p->ref_hash);
}

spec_expr *spec_expr_parse(const char *text, spec_loc loc, spec_diags *diags)
{
	if (!text)
		text = "";
	expr_parser p = {.text = text, .len = strlen(text), .loc = loc, .diags = diags};
	expr_id root = EXPR_NONE;
	if (p.len >= UINT32_MAX) {
		expr_error(&p, 0, "expression too long");
	} else if (expr_next(&p)) {
		if (p.tok.kind == TOK_END)
			expr_expected(&p, "an expression");
		else
			root = expr_parse_cond(&p, 1);
	}
	if (root != EXPR_NONE && p.tok.kind != TOK_END) {
		expr_expected(&p, "an operator or end of expression");
		root = EXPR_NONE;
	}
	spec_expr *e = NULL;
	if (root != EXPR_NONE) {
		e = calloc(1, sizeof *e);
		char *copy = malloc(p.len + 1);
		if (!e || !copy) {
			free(e);
			free(copy);
			e = NULL;
			expr_error(&p, 0, "out of memory");
		} else {
			memcpy(copy, text, p.len + 1);
			*e = (spec_expr){.text = copy, .nodes = p.nodes, .root = root,
			                 .refs = p.refs, .nrefs = p.nrefs,
			                 .uses_gpu_id = p.uses_gpu_id, .loc = loc};
			p.nodes = NULL;
			p.refs = NULL;
			p.nrefs = 0;
		}
	}
	expr_parser_free(&p);
	return e;
}

void spec_expr_free(spec_expr *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->nrefs; i++)
		free(e->refs[i]);
	free(e->refs);
	free(e->nodes);
	free(e->text);
	free(e);
}

/* -------------------------------------------------------- evaluation */

typedef struct expr_cache_slot {
	int64_t value;
	bool known;
} expr_cache_slot;

typedef struct expr_eval_ctx {
	const spec_expr *e;
	const spec_eval_env *env;
	expr_cache_slot *cache; /* one slot per ref: each is looked up once */
	char *err;
	size_t errlen;
} expr_eval_ctx;

__attribute__((format(printf, 2, 3)))
static bool expr_eval_fail(expr_eval_ctx *c, const char *fmt, ...)
{
	if (c->err && c->errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(c->err, c->errlen, fmt, ap);
		va_end(ap);
	}
	return false;
}

/* uint64 -> int64 modulo 2^64, without implementation-defined behaviour. */
static int64_t expr_wrap(uint64_t u)
{
	return u <= INT64_MAX ? (int64_t)u : -(int64_t)(~u) - 1;
}

/* Arithmetic right shift; C leaves >> of a negative value to the
 * implementation, so negative values are shifted in complement. */
static int64_t expr_sar(int64_t a, int64_t n)
{
	return a < 0 ? ~(~a >> n) : a >> n;
}

static bool expr_lookup(expr_eval_ctx *c, size_t ref, int64_t *out)
{
	expr_cache_slot *slot = &c->cache[ref];
	if (slot->known) {
		*out = slot->value;
		return true;
	}
	const char *name = c->e->refs[ref];
	char buf[256]; /* not zeroed whole: a look-up a walk makes for every name */
	buf[0] = '\0';
	int64_t v = 0;
	if (!c->env->lookup ||
	    !c->env->lookup(c->env->ctx, name, c->env->depth + 1, &v, buf, sizeof buf)) {
		buf[sizeof buf - 1] = '\0';
		if (buf[0])
			return expr_eval_fail(c, "%s", buf);
		return expr_eval_fail(c, "unknown field '%s'", name);
	}
	*slot = (expr_cache_slot){.value = v, .known = true};
	*out = v;
	return true;
}

static bool expr_eval_node(expr_eval_ctx *c, expr_id i, int64_t *out);

/* The operators that need both operands, after both were evaluated. */
static bool expr_eval_binary(expr_eval_ctx *c, expr_op op, int64_t a, int64_t b,
                             int64_t *out)
{
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
	switch (op) {
	case SPEC_OP_MUL: *out = expr_wrap(ua * ub); return true;
	case SPEC_OP_ADD: *out = expr_wrap(ua + ub); return true;
	case SPEC_OP_SUB: *out = expr_wrap(ua - ub); return true;
	case SPEC_OP_DIV:
	case SPEC_OP_MOD: {
		const char *what = op == SPEC_OP_DIV ? "division" : "modulo";
		if (b == 0)
			return expr_eval_fail(c, "%s by zero", what);
		if (a == INT64_MIN && b == -1)
			return expr_eval_fail(c, "%s overflows: INT64_MIN %s -1", what,
			                      op == SPEC_OP_DIV ? "/" : "%");
		*out = op == SPEC_OP_DIV ? a / b : a % b;
		return true;
	}
	case SPEC_OP_SHL:
	case SPEC_OP_SHR:
		if (b < 0 || b > 63)
			return expr_eval_fail(c, "shift count %" PRId64 " is outside 0..63", b);
		*out = op == SPEC_OP_SHL ? expr_wrap(ua << b) : expr_sar(a, b);
		return true;
	case SPEC_OP_LT: *out = a < b; return true;
	case SPEC_OP_GT: *out = a > b; return true;
	case SPEC_OP_LE: *out = a <= b; return true;
	case SPEC_OP_GE: *out = a >= b; return true;
	case SPEC_OP_EQ: *out = a == b; return true;
	case SPEC_OP_NE: *out = a != b; return true;
	case SPEC_OP_BITAND: *out = expr_wrap(ua & ub); return true;
	case SPEC_OP_BITXOR: *out = expr_wrap(ua ^ ub); return true;
	case SPEC_OP_BITOR: *out = expr_wrap(ua | ub); return true;
	default: return expr_eval_fail(c, "internal error: bad operator %d", (int)op);
	}
}

/* Recursion is bounded by the tree height (<= SPEC_MAX_AST_DEPTH). */
static bool expr_eval_node(expr_eval_ctx *c, expr_id i, int64_t *out)
{
	const expr_node *n = &c->e->nodes[i];
	int64_t a, b;
	switch (n->op) {
	case SPEC_OP_NUM: *out = n->value; return true;
	case SPEC_OP_FIELD: return expr_lookup(c, (size_t)n->value, out);
	case SPEC_OP_GPU_ID: *out = c->env->gpu_id; return true;
	case SPEC_OP_NOT:
	case SPEC_OP_BITNOT:
	case SPEC_OP_NEG:
	case SPEC_OP_POS:
		if (!expr_eval_node(c, n->kid[0], &a))
			return false;
		if (n->op == SPEC_OP_NOT)
			*out = a == 0;
		else if (n->op == SPEC_OP_BITNOT)
			*out = expr_wrap(~(uint64_t)a);
		else if (n->op == SPEC_OP_NEG)
			*out = expr_wrap(0u - (uint64_t)a);
		else
			*out = a;
		return true;
	case SPEC_OP_AND:
	case SPEC_OP_OR:
		/* Short-circuit as C does: the right side's lookups must not
		 * happen (they may name fields absent in this case). */
		if (!expr_eval_node(c, n->kid[0], &a))
			return false;
		if ((n->op == SPEC_OP_AND) == (a == 0)) {
			*out = n->op == SPEC_OP_OR;
			return true;
		}
		if (!expr_eval_node(c, n->kid[1], &b))
			return false;
		*out = b != 0;
		return true;
	case SPEC_OP_COND:
		if (!expr_eval_node(c, n->kid[0], &a))
			return false;
		return expr_eval_node(c, n->kid[a ? 1 : 2], out);
	default:
		if (!expr_eval_node(c, n->kid[0], &a) || !expr_eval_node(c, n->kid[1], &b))
			return false;
		return expr_eval_binary(c, n->op, a, b, out);
	}
}

bool spec_expr_eval(const spec_expr *e, const spec_eval_env *env,
                    int64_t *result, char *err, size_t errlen)
{
	static const spec_eval_env no_env = {0};
	expr_eval_ctx c = {.e = e, .env = env ? env : &no_env, .err = err, .errlen = errlen};
	if (err && errlen)
		err[0] = '\0';
	if (!e)
		return expr_eval_fail(&c, "no expression");
	if (c.env->depth > SPEC_MAX_EXPR_DEPTH)
		return expr_eval_fail(&c, "expressions nested too deeply (over %u "
		                      "evaluations; recursive definition?)",
		                      SPEC_MAX_EXPR_DEPTH);
	/* Most expressions name a handful of fields: avoid malloc for them. */
	expr_cache_slot local[16];
	expr_cache_slot *cache = local;
	if (e->nrefs > sizeof local / sizeof local[0]) {
		cache = malloc(e->nrefs * sizeof *cache);
		if (!cache)
			return expr_eval_fail(&c, "out of memory");
	}
	for (size_t i = 0; i < e->nrefs; i++)
		cache[i].known = false;
	c.cache = cache;
	int64_t v = 0;
	bool ok = expr_eval_node(&c, e->root, &v);
	if (cache != local)
		free(cache);
	if (ok && result)
		*result = v;
	return ok;
}

/* --------------------------------------------------------- accessors */

spec_loc spec_expr_loc(const spec_expr *e)
{
	return e ? e->loc : (spec_loc){0};
}

size_t spec_expr_ref_count(const spec_expr *e)
{
	return e ? e->nrefs : 0;
}

const char *spec_expr_ref(const spec_expr *e, size_t i)
{
	return e && i < e->nrefs ? e->refs[i] : NULL;
}

bool spec_expr_uses_gpu_id(const spec_expr *e)
{
	return e && e->uses_gpu_id;
}

const char *spec_expr_text(const spec_expr *e)
{
	return e ? e->text : NULL;
}

/* ------------------------------------------------------------ folding */



static void *expr_fold_node(const spec_expr *e, expr_id i, spec_expr_build build, void *ctx)
{
	const expr_node *n = &e->nodes[i];
	void *kids[3] = {NULL, NULL, NULL};
	if (n->op == SPEC_OP_NUM)
		return build(ctx, SPEC_OP_NUM, n->value, NULL, kids);
	if (n->op == SPEC_OP_FIELD)
		return build(ctx, SPEC_OP_FIELD, 0, e->refs[n->value], kids);
	if (n->op == SPEC_OP_GPU_ID)
		return build(ctx, SPEC_OP_GPU_ID, 0, NULL, kids);
	/* the tree is at most SPEC_MAX_AST_DEPTH high: the recursion is bounded */
	for (int k = 0; k < 3 && n->kid[k] != EXPR_NONE; k++)
		if (!(kids[k] = expr_fold_node(e, n->kid[k], build, ctx)))
			return NULL;
	return build(ctx, n->op, 0, NULL, kids);
}

void *spec_expr_fold(const spec_expr *e, spec_expr_build build, void *ctx)
{
	return e && e->root != EXPR_NONE ? expr_fold_node(e, e->root, build, ctx) : NULL;
}
