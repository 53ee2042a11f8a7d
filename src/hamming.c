/*
 * hamming.c
 *    The Hamming distance operator <~>, the hamming_ball query type, ndd_within(), and the planner
 *    support that lets `WHERE fp <~> $1 <= 3` use an ndd index.
 *
 * Why a rewrite is needed: the planner matches an index only to `indexed_column OP value`, and in
 * `fp <~> q <= 3` the top operator is the comparison, whose argument is an expression, not the
 * column. So <~> returns hamming_distance, a type of our own that behaves as an int4 (same binary
 * form, implicit cast to int4), and every comparison between hamming_distance and an integer
 * carries a support function. During eval_const_expressions (which runs on quals before index
 * matching) that function replaces `fp <~> q <= k` by the equivalent `ndd_within(fp, q, k)`; then
 * ndd_within's own support function, asked by the index matcher whether either argument is an
 * indexed column, turns it into `col <@ hamming_ball(other, k)`, the operator of the ndd operator
 * classes. The rewrite is exact, so it is also correct where no index exists.
 */
#include "ndd.h"

#include <math.h>

#include "access/htup_details.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "libpq/pqformat.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/supportnodes.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "parser/parse_coerce.h"
#include "parser/parse_func.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"
#include "utils/syscache.h"

PG_FUNCTION_INFO_V1(ndd_simhash64_hamming);
PG_FUNCTION_INFO_V1(ndd_fp128_hamming);
PG_FUNCTION_INFO_V1(hamming_ball_in);
PG_FUNCTION_INFO_V1(hamming_ball_out);
PG_FUNCTION_INFO_V1(hamming_ball_recv);
PG_FUNCTION_INFO_V1(hamming_ball_send);
PG_FUNCTION_INFO_V1(hamming_ball_simhash64);
PG_FUNCTION_INFO_V1(hamming_ball_fp128);
PG_FUNCTION_INFO_V1(ndd_within_ball_simhash64);
PG_FUNCTION_INFO_V1(ndd_within_ball_fp128);
PG_FUNCTION_INFO_V1(simhash64_in_ball);
PG_FUNCTION_INFO_V1(fp128_in_ball);
PG_FUNCTION_INFO_V1(ball_contains_simhash64);
PG_FUNCTION_INFO_V1(ball_contains_fp128);
PG_FUNCTION_INFO_V1(ndd_within_simhash64);
PG_FUNCTION_INFO_V1(ndd_within_fp128);
PG_FUNCTION_INFO_V1(ndd_radius_bound);
PG_FUNCTION_INFO_V1(ndd_within_support);
PG_FUNCTION_INFO_V1(hamming_ball_sel);
PG_FUNCTION_INFO_V1(hamming_ball_joinsel);
PG_FUNCTION_INFO_V1(hamming_le_support);
PG_FUNCTION_INFO_V1(hamming_lt_support);
PG_FUNCTION_INFO_V1(hamming_eq_support);
PG_FUNCTION_INFO_V1(hamming_ge_support);
PG_FUNCTION_INFO_V1(hamming_gt_support);

/* The C symbols of the two distance functions: how the support functions recognise <~>. */
#define SIMHASH64_HAMMING_SYMBOL "ndd_simhash64_hamming"
#define FP128_HAMMING_SYMBOL "ndd_fp128_hamming"

/* Radii above this are all the same: every fingerprint is within 128 bits of every other. */
#define MAX_USEFUL_RADIUS 128

/* ---- distances ---- */

Datum
ndd_simhash64_hamming(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(ndd_popcount64(PG_GETARG_SIMHASH64(0) ^ PG_GETARG_SIMHASH64(1)));
}

Datum
ndd_fp128_hamming(PG_FUNCTION_ARGS)
{
	Fp128	   *a = PG_GETARG_FP128_P(0);
	Fp128	   *b = PG_GETARG_FP128_P(1);

	PG_RETURN_INT32(ndd_popcount64(a->hi ^ b->hi) + ndd_popcount64(a->lo ^ b->lo));
}

/* ---- hamming_ball ---- */

/* Clamps a radius to [-1, MAX_USEFUL_RADIUS]: -1 holds nothing, 128 everything. */
static int32
clamp_radius(int64 k)
{
	if (k < 0)
		return -1;
	if (k > MAX_USEFUL_RADIUS)
		return MAX_USEFUL_RADIUS;
	return (int32) k;
}

/*
 * A ball's radius is 0 or more: a negative one would hold nothing, silently (issue 20), so every
 * way in (hamming_ball(), text input, binary receive) refuses it. The comparison `fp <~> q <= k`
 * with k < 0 is a different thing, a valid test that no row passes: its index condition is built
 * with ndd_within_ball(), which gives NULL (nothing) there instead of a ball.
 */
static void
check_radius(int32 radius)
{
	if (radius < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the radius of a hamming_ball must not be negative"),
				 errdetail("The radius is %d.", radius),
				 errhint("A ball of radius 0 holds its center only; fp <~> q <= k with k < 0 matches nothing.")));
}

/* Parses "(center,radius)"; the center's digit count decides 64 or 128 bits. */
Datum
hamming_ball_in(PG_FUNCTION_ARGS)
{
	char	   *str = PG_GETARG_CSTRING(0);
	char	   *copy = pstrdup(str);
	char	   *p = copy;
	char	   *comma;
	char	   *close;
	char	   *center;
	size_t		ndigits;
	HammingBall *ball = palloc0(sizeof(HammingBall));

	while (isspace((unsigned char) *p))
		p++;
	comma = strchr(p, ',');
	close = strrchr(p, ')');
	if (*p != '(' || comma == NULL || close == NULL || close < comma ||
		strspn(close + 1, " \t\n\r\f\v") != strlen(close + 1))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for type hamming_ball: \"%s\"", str),
				 errdetail("A hamming_ball is written (center,radius), for example (0123456789abcdef,3).")));
	*comma = '\0';
	*close = '\0';
	center = p + 1;

	/* count the digits as the fingerprint parser will see them, to pick the width */
	p = center;
	while (isspace((unsigned char) *p))
		p++;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	ndigits = strspn(p, "0123456789abcdefABCDEF");
	ball->bits = ndigits > 16 ? 128 : 64;
	ndd_parse_hex_fingerprint(center, ball->bits / 64, ball->words, ball->bits == 64 ? "simhash64" : "fp128");
	ball->radius = pg_strtoint32(comma + 1);
	check_radius(ball->radius);
	PG_RETURN_POINTER(ball);
}

/* Prints "(center,radius)" with the center at full width. */
Datum
hamming_ball_out(PG_FUNCTION_ARGS)
{
	HammingBall *ball = PG_GETARG_HAMMING_BALL_P(0);
	char		hex[33];

	ndd_word_to_hex(ball->words[0], hex);
	if (ball->bits == 128)
		ndd_word_to_hex(ball->words[1], hex + 16);
	hex[ball->bits / 4] = '\0';
	PG_RETURN_CSTRING(psprintf("(%s,%d)", hex, ball->radius));
}

/* Binary form: bits (int4), radius (int4), then bits/64 words. */
Datum
hamming_ball_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	HammingBall *ball = palloc0(sizeof(HammingBall));
	int			i;

	ball->bits = pq_getmsgint(buf, 4);
	if (ball->bits != 64 && ball->bits != 128)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid width %d in external hamming_ball value", ball->bits)));
	ball->radius = pq_getmsgint(buf, 4);
	check_radius(ball->radius);
	for (i = 0; i < ball->bits / 64; i++)
		ball->words[i] = (uint64) pq_getmsgint64(buf);
	PG_RETURN_POINTER(ball);
}

Datum
hamming_ball_send(PG_FUNCTION_ARGS)
{
	HammingBall *ball = PG_GETARG_HAMMING_BALL_P(0);
	StringInfoData buf;
	int			i;

	pq_begintypsend(&buf);
	pq_sendint32(&buf, ball->bits);
	pq_sendint32(&buf, ball->radius);
	for (i = 0; i < ball->bits / 64; i++)
		pq_sendint64(&buf, (int64) ball->words[i]);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/* The ball of every fingerprint of `bits` bits within radius bits of q. */
static Datum
make_ball(Datum q, int bits, int32 radius)
{
	HammingBall *ball = palloc0(sizeof(HammingBall));

	ndd_fingerprint_words(q, bits, ball->words);
	ball->radius = radius;
	check_radius(ball->radius);
	ball->bits = bits;
	return PointerGetDatum(ball);
}

/* hamming_ball(q simhash64, k int): every simhash64 within k bits of q. */
Datum
hamming_ball_simhash64(PG_FUNCTION_ARGS)
{
	return make_ball(PG_GETARG_DATUM(0), 64, PG_GETARG_INT32(1));
}

/* hamming_ball(q fp128, k int): every fp128 within k bits of q. */
Datum
hamming_ball_fp128(PG_FUNCTION_ARGS)
{
	return make_ball(PG_GETARG_DATUM(0), 128, PG_GETARG_INT32(1));
}

/*
 * ndd_within_ball(q, k): the index condition of ndd_within(fp, q, k) when k is known only at run
 * time: hamming_ball(q, k) for k >= 0, NULL for k < 0 (no fingerprint is within a negative
 * distance; <@ NULL matches nothing, in a scan and in the index alike).
 */
Datum
ndd_within_ball_simhash64(PG_FUNCTION_ARGS)
{
	if (PG_GETARG_INT32(1) < 0)
		PG_RETURN_NULL();
	return hamming_ball_simhash64(fcinfo);
}

Datum
ndd_within_ball_fp128(PG_FUNCTION_ARGS)
{
	if (PG_GETARG_INT32(1) < 0)
		PG_RETURN_NULL();
	return hamming_ball_fp128(fcinfo);
}

/* Raises an error unless the ball is as wide as the fingerprint tested against it (ndd.h). */
void
ndd_check_ball_width(const HammingBall *ball, int bits)
{
	if (ball->bits != bits)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("cannot test a %d-bit fingerprint against a %d-bit hamming_ball", bits, ball->bits),
				 errhint("Build the ball from a %s: hamming_ball(q, k).", bits == 64 ? "simhash64" : "fp128")));
}

/* Is a simhash64 inside the ball? */
static bool
simhash64_in_ball_internal(uint64 fp, const HammingBall *ball)
{
	ndd_check_ball_width(ball, 64);
	return ndd_popcount64(fp ^ ball->words[0]) <= ball->radius;
}

/* Is an fp128 inside the ball? */
static bool
fp128_in_ball_internal(const Fp128 *fp, const HammingBall *ball)
{
	ndd_check_ball_width(ball, 128);
	return ndd_popcount64(fp->hi ^ ball->words[0]) + ndd_popcount64(fp->lo ^ ball->words[1]) <=
		ball->radius;
}

Datum
simhash64_in_ball(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(simhash64_in_ball_internal(PG_GETARG_SIMHASH64(0), PG_GETARG_HAMMING_BALL_P(1)));
}

Datum
fp128_in_ball(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(fp128_in_ball_internal(PG_GETARG_FP128_P(0), PG_GETARG_HAMMING_BALL_P(1)));
}

Datum
ball_contains_simhash64(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(simhash64_in_ball_internal(PG_GETARG_SIMHASH64(1), PG_GETARG_HAMMING_BALL_P(0)));
}

Datum
ball_contains_fp128(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(fp128_in_ball_internal(PG_GETARG_FP128_P(1), PG_GETARG_HAMMING_BALL_P(0)));
}

/* ndd_within(a, b, k): a <~> b <= k, the form the planner can turn into an index condition. */
Datum
ndd_within_simhash64(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(ndd_popcount64(PG_GETARG_SIMHASH64(0) ^ PG_GETARG_SIMHASH64(1)) <= PG_GETARG_INT32(2));
}

Datum
ndd_within_fp128(PG_FUNCTION_ARGS)
{
	Fp128	   *a = PG_GETARG_FP128_P(0);
	Fp128	   *b = PG_GETARG_FP128_P(1);

	PG_RETURN_BOOL(ndd_popcount64(a->hi ^ b->hi) + ndd_popcount64(a->lo ^ b->lo) <= PG_GETARG_INT32(2));
}

/*
 * ndd_radius_bound(k int8, exclusive bool) → int4: the inclusive radius equivalent to `<= k` (or
 * `< k` when exclusive), clamped to [-1, 128] so any integer bound fits ndd_within's int4 radius.
 * Used by the rewrite when the bound is not a constant (generic plans, PL/pgSQL variables).
 */
Datum
ndd_radius_bound(PG_FUNCTION_ARGS)
{
	int64		k = PG_GETARG_INT64(0);

	if (PG_GETARG_BOOL(1))
		k = (k == PG_INT64_MIN) ? k : k - 1;
	PG_RETURN_INT32(clamp_radius(k));
}

/* ---- planner support ---- */

/*
 * Is node a call of one of our distance functions (<~> or hamming())? Sets its two arguments.
 * Ours means: a C function of the extension's schema (nsp, the schema of the support function
 * being called) whose symbol is one of the two distance functions. Only a superuser creates C
 * functions, so nobody can pass another function off as ours.
 */
static bool
is_distance_call(Node *node, Oid nsp, Node **a, Node **b)
{
	Oid			funcid;
	List	   *args;
	HeapTuple	tp;
	Form_pg_proc proc;
	bool		result = false;

	if (IsA(node, OpExpr))
	{
		set_opfuncid((OpExpr *) node);
		funcid = ((OpExpr *) node)->opfuncid;
		args = ((OpExpr *) node)->args;
	}
	else if (IsA(node, FuncExpr))
	{
		funcid = ((FuncExpr *) node)->funcid;
		args = ((FuncExpr *) node)->args;
	}
	else
		return false;
	if (list_length(args) != 2)
		return false;

	tp = SearchSysCache1(PROCOID, ObjectIdGetDatum(funcid));
	if (!HeapTupleIsValid(tp))
		return false;
	proc = (Form_pg_proc) GETSTRUCT(tp);
	if (proc->prolang == ClanguageId && proc->pronamespace == nsp)
	{
		bool		isnull;
		Datum		src = SysCacheGetAttr(PROCOID, tp, Anum_pg_proc_prosrc, &isnull);

		if (!isnull)
		{
			char	   *symbol = TextDatumGetCString(src);

			result = strcmp(symbol, SIMHASH64_HAMMING_SYMBOL) == 0 ||
				strcmp(symbol, FP128_HAMMING_SYMBOL) == 0;
		}
	}
	ReleaseSysCache(tp);
	if (result)
	{
		*a = linitial(args);
		*b = lsecond(args);
	}
	return result;
}

/*
 * The schema of the extension: that of the support function being called (fn_oid of its own
 * FmgrInfo). Everything the support functions look up is found there by OID and exact signature,
 * never through search_path, so the rewrite works, and cannot be captured, in any schema.
 */
static Oid
support_namespace(FunctionCallInfo fcinfo)
{
	return get_func_namespace(fcinfo->flinfo->fn_oid);
}

/* Finds one of our functions by name and exact argument types in the extension's schema. */
static Oid
sibling_function(Oid nsp, const char *name, int nargs, const Oid *argtypes)
{
	oidvector  *types = buildoidvector(argtypes, nargs);
	HeapTuple	tp;
	Oid			result = InvalidOid;

	if (!OidIsValid(nsp))
		return InvalidOid;
	tp = SearchSysCache3(PROCNAMEARGSNSP, CStringGetDatum(name), PointerGetDatum(types),
						 ObjectIdGetDatum(nsp));
	if (HeapTupleIsValid(tp))
	{
		result = ((Form_pg_proc) GETSTRUCT(tp))->oid;
		ReleaseSysCache(tp);
	}
	return result;
}

typedef enum CmpKind
{
	CMP_LT, CMP_LE, CMP_EQ, CMP_GE, CMP_GT
} CmpKind;

/* The comparison seen from the other side: k < d is d > k. */
static CmpKind
commute_cmp(CmpKind kind)
{
	switch (kind)
	{
		case CMP_LT:
			return CMP_GT;
		case CMP_LE:
			return CMP_GE;
		case CMP_GE:
			return CMP_LE;
		case CMP_GT:
			return CMP_LT;
		default:
			return kind;
	}
}

/*
 * The int4 radius expression for "distance <= bound" (exclusive: "distance < bound"). bound is an
 * int2, int4, int8 or hamming_distance expression. Constants are folded here, because
 * eval_const_expressions does not revisit what a support function returns.
 */
static Node *
radius_expression(Node *bound, bool exclusive, Oid hdtype, Oid nsp)
{
	Oid			type = exprType(bound);
	Oid			argtypes[2] = {INT8OID, BOOLOID};
	Oid			fn;
	Node	   *k8;

	if (type != INT2OID && type != INT4OID && type != INT8OID && type != hdtype)
		return NULL;

	if (IsA(bound, Const))
	{
		Const	   *c = (Const *) bound;
		int64		k;

		if (c->constisnull)
			return NULL;
		if (type == INT2OID)
			k = DatumGetInt16(c->constvalue);
		else if (type == INT8OID)
			k = DatumGetInt64(c->constvalue);
		else
			k = DatumGetInt32(c->constvalue);
		if (exclusive && k != PG_INT64_MIN)
			k--;
		return (Node *) makeConst(INT4OID, -1, InvalidOid, sizeof(int32),
								  Int32GetDatum(clamp_radius(k)), false, true);
	}

	fn = sibling_function(nsp, "ndd_radius_bound", 2, argtypes);
	if (!OidIsValid(fn))
		return NULL;
	k8 = bound;
	if (type == hdtype)
		k8 = (Node *) makeRelabelType((Expr *) k8, INT4OID, -1, InvalidOid, COERCE_IMPLICIT_CAST);
	if (exprType(k8) != INT8OID)
		k8 = coerce_to_target_type(NULL, k8, exprType(k8), INT8OID, -1,
								   COERCION_IMPLICIT, COERCE_IMPLICIT_CAST, -1);
	if (k8 == NULL)
		return NULL;
	return (Node *) makeFuncExpr(fn, INT4OID,
								 list_make2(k8, makeBoolConst(exclusive, false)),
								 InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
}

/*
 * SupportRequestSimplify for a comparison between a distance and a bound: returns
 * ndd_within(a, b, radius) for <= and <, the same ANDed with the comparison for =, and nothing
 * (keep the comparison) for the lower bounds >= and >, which no ball describes.
 *
 * The rewrite is exact for any operands and evaluates each of them exactly as often as the
 * comparison did (once per row): whether ndd_within may become an index condition is decided
 * later, by ndd_within_support, once the planner knows which relation is scanned.
 */
static Node *
simplify_comparison(Node *rawreq, CmpKind kind, Oid nsp)
{
	SupportRequestSimplify *req;
	FuncExpr   *call;
	Node	   *left,
			   *right,
			   *dist,
			   *bound,
			   *a,
			   *b,
			   *radius;
	Oid			fptype,
				argtypes[3];
	Oid			within;
	Node	   *within_call;

	if (!IsA(rawreq, SupportRequestSimplify))
		return NULL;
	req = (SupportRequestSimplify *) rawreq;
	call = req->fcall;
	if (list_length(call->args) != 2)
		return NULL;
	left = linitial(call->args);
	right = lsecond(call->args);

	if (is_distance_call(left, nsp, &a, &b))
	{
		dist = left;
		bound = right;
	}
	else if (is_distance_call(right, nsp, &a, &b))
	{
		dist = right;
		bound = left;
		kind = commute_cmp(kind);
	}
	else
		return NULL;
	if (kind == CMP_GE || kind == CMP_GT)
		return NULL;
	/*
	 * = keeps the original comparison beside the ball, so its operands would be evaluated twice:
	 * not for volatile functions (two different values) nor subqueries (run twice).
	 */
	if (kind == CMP_EQ &&
		(contain_volatile_functions((Node *) call->args) || contain_subplans((Node *) call->args)))
		return NULL;

	radius = radius_expression(bound, kind == CMP_LT, exprType(dist), nsp);
	if (radius == NULL)
		return NULL;

	fptype = exprType(a);
	argtypes[0] = fptype;
	argtypes[1] = exprType(b);
	argtypes[2] = INT4OID;
	within = sibling_function(nsp, "ndd_within", 3, argtypes);
	if (!OidIsValid(within))
		return NULL;
	within_call = (Node *) makeFuncExpr(within, BOOLOID, list_make3(a, b, radius),
										InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
	if (kind == CMP_EQ)
	{
		/*
		 * d = k is d <= k and not d < k: ndd_within(a, b, k) AND NOT ndd_within(a, b, k - 1),
		 * exact with the clamped radii too (k > 128 gives 128 both times, so false). Not the
		 * original comparison beside the ball: the planner simplifies some clauses again (join
		 * clauses), and a comparison that carries this very support function would be rewritten
		 * into itself without end (planning a join on `x.fp <~> y.fp = 2` exhausted memory).
		 */
		Node	   *below = radius_expression(bound, true, exprType(dist), nsp);

		if (below == NULL)
			return NULL;
		return (Node *) make_andclause(list_make2(within_call,
												  make_notclause((Expr *) makeFuncExpr(within, BOOLOID,
																					   list_make3(a, b, below),
																					   InvalidOid, InvalidOid,
																					   COERCE_EXPLICIT_CALL))));
	}
	return within_call;
}

Datum
hamming_le_support(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(simplify_comparison((Node *) PG_GETARG_POINTER(0), CMP_LE,
										  support_namespace(fcinfo)));
}

Datum
hamming_lt_support(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(simplify_comparison((Node *) PG_GETARG_POINTER(0), CMP_LT,
										  support_namespace(fcinfo)));
}

Datum
hamming_eq_support(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(simplify_comparison((Node *) PG_GETARG_POINTER(0), CMP_EQ,
										  support_namespace(fcinfo)));
}

Datum
hamming_ge_support(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(simplify_comparison((Node *) PG_GETARG_POINTER(0), CMP_GE,
										  support_namespace(fcinfo)));
}

Datum
hamming_gt_support(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(simplify_comparison((Node *) PG_GETARG_POINTER(0), CMP_GT,
										  support_namespace(fcinfo)));
}

/*
 * Share of random fingerprints of `bits` bits within `radius` of a point: the binomial tail
 * P(Bin(bits, 1/2) <= radius). Real collections hold near-duplicates, so this underestimates, but
 * it has the right shape: negligible for small radii, about one half at bits/2.
 */
static Selectivity
ball_selectivity(int bits, int radius)
{
	double		sum = 0.0;
	int			i;

	if (radius < 0)
		return 0.0;
	if (radius >= bits)
		return 1.0;
	for (i = 0; i <= radius; i++)
		sum += exp(lgamma(bits + 1.0) - lgamma(i + 1.0) - lgamma(bits - i + 1.0) - bits * M_LN2);
	CLAMP_PROBABILITY(sum);
	return sum;
}

/* Radius assumed when the planner cannot see it (a generic plan's parameter): a typical k. */
#define DEFAULT_ESTIMATE_RADIUS 3

/* The radius of a constant int4 expression, or the default. */
static int
estimate_radius(Node *k)
{
	if (k && IsA(k, Const) && !((Const *) k)->constisnull)
		return DatumGetInt32(((Const *) k)->constvalue);
	return DEFAULT_ESTIMATE_RADIUS;
}

/* Selectivity of `fp <@ ball` (or `ball @> fp`) from the args of the clause. */
static Selectivity
ball_clause_selectivity(PlannerInfo *root, List *args)
{
	Node	   *left = linitial(args);
	Node	   *right = lsecond(args);
	Node	   *fp,
			   *ball;
	int			bits;
	int			radius = DEFAULT_ESTIMATE_RADIUS;

	/* the ball is the side whose type is 24 bytes wide; the fingerprint is the other one */
	ball = right;
	fp = left;
	if (get_typlen(exprType(left)) == sizeof(HammingBall))
	{
		ball = left;
		fp = right;
	}
	bits = ndd_fingerprint_bits(get_typlen(exprType(fp)));

	ball = estimate_expression_value(root, ball);
	if (IsA(ball, Const) && !((Const *) ball)->constisnull)
		radius = DatumGetHammingBallP(((Const *) ball)->constvalue)->radius;
	else if (IsA(ball, FuncExpr) && list_length(((FuncExpr *) ball)->args) == 2 &&
			 exprType(lsecond(((FuncExpr *) ball)->args)) == INT4OID)
		radius = estimate_radius(lsecond(((FuncExpr *) ball)->args));
	return ball_selectivity(bits, radius);
}

/* Restriction estimator of <@ and @>. */
Datum
hamming_ball_sel(PG_FUNCTION_ARGS)
{
	PlannerInfo *root = (PlannerInfo *) PG_GETARG_POINTER(0);
	List	   *args = (List *) PG_GETARG_POINTER(2);

	if (list_length(args) != 2)
		PG_RETURN_FLOAT8(ball_selectivity(64, DEFAULT_ESTIMATE_RADIUS));
	PG_RETURN_FLOAT8(ball_clause_selectivity(root, args));
}

/* Join estimator of <@ and @>: the same share of the cross product. */
Datum
hamming_ball_joinsel(PG_FUNCTION_ARGS)
{
	PlannerInfo *root = (PlannerInfo *) PG_GETARG_POINTER(0);
	List	   *args = (List *) PG_GETARG_POINTER(2);

	if (list_length(args) != 2)
		PG_RETURN_FLOAT8(ball_selectivity(64, DEFAULT_ESTIMATE_RADIUS));
	PG_RETURN_FLOAT8(ball_clause_selectivity(root, args));
}

/*
 * Support function of ndd_within(a, b, k): turns it into `indexcol <@ hamming_ball(other, k)`
 * for an ndd index on either argument, and estimates its selectivity.
 *
 * An index condition's comparison value is computed once, before the scan (per rescan of a
 * parameterized scan), so `other` and `k` must be what PostgreSQL's own index matcher accepts:
 * no Var of the indexed relation (fp2 or k of the same row, or the indexed column itself) and no
 * volatile function (nextval(), random(): one value per row, not one per scan). Vars of other
 * relations (a join's outer side, LATERAL) and Params (outer references of a correlated subquery,
 * initplans of uncorrelated ones, $1 of a prepared statement) are constant during one scan and
 * are fine. Anything else is declined and ndd_within stays an exact filter.
 */
Datum
ndd_within_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);

	if (IsA(rawreq, SupportRequestIndexCondition))
	{
		SupportRequestIndexCondition *req = (SupportRequestIndexCondition *) rawreq;
		FuncExpr   *call = (FuncExpr *) req->node;
		Node	   *col,
				   *other,
				   *k;
		Oid			fptype,
					ballfn,
					balltype,
					opno,
					argtypes[2];
		Expr	   *ball;
		OpExpr	   *clause;

		if (!IsA(call, FuncExpr) || list_length(call->args) != 3 || req->indexarg > 1)
			PG_RETURN_POINTER(NULL);
		col = list_nth(call->args, req->indexarg);
		other = list_nth(call->args, 1 - req->indexarg);
		k = lthird(call->args);
		if (!is_pseudo_constant_for_index(req->root, other, req->index) ||
			!is_pseudo_constant_for_index(req->root, k, req->index))
			PG_RETURN_POINTER(NULL);
		/*
		 * A constant k: hamming_ball(other, k), or no index condition when k < 0 (the clause stays
		 * a filter no row passes). Otherwise ndd_within_ball, which tolerates a negative k at run
		 * time (hamming_ball refuses a negative radius).
		 */
		if (IsA(k, Const) && !((Const *) k)->constisnull && DatumGetInt32(((Const *) k)->constvalue) < 0)
			PG_RETURN_POINTER(NULL);
		fptype = exprType(col);
		argtypes[0] = fptype;
		argtypes[1] = INT4OID;
		ballfn = sibling_function(support_namespace(fcinfo), IsA(k, Const) ? "hamming_ball" : "ndd_within_ball",
								  2, argtypes);
		if (!OidIsValid(ballfn))
			PG_RETURN_POINTER(NULL);
		balltype = get_func_rettype(ballfn);
		opno = get_opfamily_member(req->opfamily, fptype, balltype, 1);
		if (!OidIsValid(opno))
			PG_RETURN_POINTER(NULL);
		ball = (Expr *) makeFuncExpr(ballfn, balltype, list_make2(other, k), InvalidOid, InvalidOid,
							COERCE_EXPLICIT_CALL);
		clause = (OpExpr *) make_opclause(opno, BOOLOID, false, (Expr *) col, ball,
										  InvalidOid, InvalidOid);
		set_opfuncid(clause);
		req->lossy = false;
		PG_RETURN_POINTER(list_make1(clause));
	}

	if (IsA(rawreq, SupportRequestSelectivity))
	{
		SupportRequestSelectivity *req = (SupportRequestSelectivity *) rawreq;
		Node	   *k;

		if (list_length(req->args) != 3)
			PG_RETURN_POINTER(NULL);
		k = estimate_expression_value(req->root, lthird(req->args));
		req->selectivity = ball_selectivity(ndd_fingerprint_bits(get_typlen(exprType(linitial(req->args)))),
											estimate_radius(k));
		PG_RETURN_POINTER(req);
	}

	PG_RETURN_POINTER(NULL);
}
