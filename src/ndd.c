/*
 * ndd.c
 *    Module entry point and the bridge between PostgreSQL and the C++ core.
 */
#include "ndd.h"

#include "miscadmin.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

NDD_MODULE_MAGIC;

int
ndd_interrupt_pending(void)
{
	/*
	 * Only interrupts that CHECK_FOR_INTERRUPTS() will turn into an error count: stopping the core
	 * for anything else (a barrier, a catchup signal) would make us fail a query nobody cancelled.
	 */
	return InterruptPending && (QueryCancelPending || ProcDiePending) &&
		InterruptHoldoffCount == 0 && CritSectionCount == 0;
}

void *
ndd_alloc_noerror(size_t size)
{
	return palloc_extended(size, MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM);
}

void
ndd_raise_status(NddStatus status, const char *what)
{
	switch (status)
	{
		case NDD_OK:
			return;
		case NDD_CANCELLED:
			CHECK_FOR_INTERRUPTS();
			/* the interrupt was consumed elsewhere; still, the result is incomplete */
			ereport(ERROR,
					(errcode(ERRCODE_QUERY_CANCELED),
					 errmsg("canceling %s due to an interrupt", what)));
			break;
		case NDD_OUT_OF_MEMORY:
			ereport(ERROR,
					(errcode(ERRCODE_OUT_OF_MEMORY),
					 errmsg("out of memory"),
					 errdetail("Failed while computing %s.", what)));
			break;
		case NDD_INVALID_ARGUMENT:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid argument for %s", what)));
			break;
		case NDD_INTERNAL:
		default:
			ereport(ERROR,
					(errcode(ERRCODE_INTERNAL_ERROR),
					 errmsg("internal error while computing %s", what)));
			break;
	}
}

/* The reset callback of an NddCoreHandle. */
static void
core_handle_reset(void *arg)
{
	ndd_core_handle_release((NddCoreHandle *) arg);
}

void
ndd_core_handle_tie(NddCoreHandle *h, MemoryContext cxt, void (*release) (void *handle))
{
	h->handle = NULL;
	h->release = release;
	h->callback.func = core_handle_reset;
	h->callback.arg = h;
	MemoryContextRegisterResetCallback(cxt, &h->callback);
}

void
ndd_core_handle_release(NddCoreHandle *h)
{
	void	   *handle = h->handle;

	/* cleared first: a release that fails is not tried again by the context's callback */
	h->handle = NULL;
	if (handle != NULL)
		h->release(handle);
}

void
ndd_check_relation_oid(Oid relid)
{
	if (!SearchSysCacheExists1(RELOID, ObjectIdGetDatum(relid)))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid)));
}

void
ndd_check_ts_config_oid(Oid cfg)
{
	if (!SearchSysCacheExists1(TSCONFIGOID, ObjectIdGetDatum(cfg)))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("text search configuration with OID %u does not exist", cfg)));
}
