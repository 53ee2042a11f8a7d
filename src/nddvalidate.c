/*-------------------------------------------------------------------------
 *
 * nddvalidate.c
 *	  The ndd access method's operator class validation (amvalidate).
 *
 *-------------------------------------------------------------------------
 */
#include "nddam.h"

#include "access/amvalidate.h"
#include "access/htup_details.h"
#include "catalog/pg_amop.h"
#include "catalog/pg_amproc.h"
#include "catalog/pg_opclass.h"
#include "catalog/pg_type.h"
#include "utils/lsyscache.h"
#include "utils/regproc.h"
#include "utils/syscache.h"

/*
 * amvalidate: an ndd operator class has exactly strategy 1, a boolean search operator
 * (opcintype, hamming_ball), and strategy 2, an ordering operator (opcintype, opcintype), and no
 * support functions. The indexed type must be 8 or 16 bytes wide.
 */
bool
ndd_validate(Oid opclassoid)
{
	bool		result = true;
	HeapTuple	classtup;
	Form_pg_opclass classform;
	Oid			opfamilyoid;
	Oid			opcintype;
	char	   *opclassname;
	CatCList   *oprlist;
	CatCList   *proclist;
	int			i;
	bool		seen[NDD_NSTRATEGIES + 1] = {false};

	classtup = SearchSysCache1(CLAOID, ObjectIdGetDatum(opclassoid));
	if (!HeapTupleIsValid(classtup))
		elog(ERROR, "cache lookup failed for operator class %u", opclassoid);
	classform = (Form_pg_opclass) GETSTRUCT(classtup);
	opfamilyoid = classform->opcfamily;
	opcintype = classform->opcintype;
	opclassname = NameStr(classform->opcname);

	if (get_typlen(opcintype) != 8 && get_typlen(opcintype) != 16)
	{
		ereport(INFO,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("ndd operator class \"%s\" indexes a type that is neither 8 nor 16 bytes wide",
						opclassname)));
		result = false;
	}

	oprlist = SearchSysCacheList1(AMOPSTRATEGY, ObjectIdGetDatum(opfamilyoid));
	for (i = 0; i < oprlist->n_members; i++)
	{
		Form_pg_amop oprform = (Form_pg_amop) GETSTRUCT(&oprlist->members[i]->tuple);

		if (oprform->amoplefttype != opcintype)
			continue;			/* another class of the family */
		if (oprform->amopstrategy == NDD_STRATEGY_WITHIN &&
			oprform->amoppurpose == AMOP_SEARCH &&
			get_typlen(oprform->amoprighttype) == sizeof(HammingBall) &&
			check_amop_signature(oprform->amopopr, BOOLOID, oprform->amoplefttype,
								 oprform->amoprighttype))
			seen[NDD_STRATEGY_WITHIN] = true;
		else if (oprform->amopstrategy == NDD_STRATEGY_DISTANCE &&
				 oprform->amoppurpose == AMOP_ORDER &&
				 oprform->amoprighttype == opcintype &&
				 OidIsValid(oprform->amopsortfamily))
			seen[NDD_STRATEGY_DISTANCE] = true;
		else
		{
			ereport(INFO,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("ndd operator class \"%s\" contains operator %s with strategy %d, which ndd cannot serve",
							opclassname, format_operator(oprform->amopopr), oprform->amopstrategy)));
			result = false;
		}
	}
	ReleaseSysCacheList(oprlist);

	for (i = 1; i <= NDD_NSTRATEGIES; i++)
	{
		if (!seen[i])
		{
			ereport(INFO,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("ndd operator class \"%s\" is missing strategy %d", opclassname, i)));
			result = false;
		}
	}

	proclist = SearchSysCacheList1(AMPROCNUM, ObjectIdGetDatum(opfamilyoid));
	if (proclist->n_members > 0)
	{
		ereport(INFO,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("ndd operator family of \"%s\" has support functions, which ndd does not use",
						opclassname)));
		result = false;
	}
	ReleaseSysCacheList(proclist);

	ReleaseSysCache(classtup);
	return result;
}
