/*
 * rwsem_unfair.pml -- Promela model of the Linux 6.12 rw_semaphore
 * (kernel/locking/rwsem.c, !CONFIG_PREEMPT_RT) extended with
 * down_read_unfair() readers, admission rule v2 (see SPEC.md).
 *
 * Read it against rwsem.c: every proctype step is one atomic operation on
 * sem->count (or one critical section of sem->wait_lock) in the kernel, and
 * the labels/inlines are named after the kernel functions.
 *
 * Rule selection (C preprocessor, spin -DNAME):
 *   (none)          the v2 rule as specified
 *   -DNAIVE         bypass whenever !WRITER (the 2010 rule); no X
 *   -DV1_SATURATION the first version (checked-out rwsem.c): lockless
 *                   rwsem_unfair_may_read(), UNFAIR waiters, slot reservation
 *                   in rwsem_mark_wake_readers(), no X
 *   -DLOCKLESS      the v2 rule, but the bypass is also tried without the
 *                   wait_lock (sees the waker's speculative bias)
 *   -DNO_CLOSE      the v2 rule without the X ("bypass closed") bit
 *   -DFIX_TAIL      v2 + every bypass sets X in its own cmpxchg (candidate
 *                   fix for the tail claim, see NOTES.md)
 *
 * Check selection (see rwsem_unfair_model.sh and NOTES.md):
 *   -DLIVENESS      FIFO wait_lock (qspinlock), writer timeout by a weakly
 *                   fair timer process, the owner READER_OWNED steal
 *                   heuristic modelled exactly, no invariant monitor
 *   -DPROGRESS_WAKE  extra progress label: the writer has been woken (L2)
 *   -DLTL_WAITERS   LTL property "every waiter leaves the wait list" (L3)
 *   -DKILL_BUDGET=n at most n fatal signals in the whole run (else unbounded)
 *   -DCHECK_TAIL    tail-claim ghosts and assertion (-DNO_UPAST for pan -DBFS)
 *   -DQUIESCE       a worker may stop arriving at its loop top, so that an
 *                   invalid end state = a task stranded in the rwsem
 *   -DITER=n        every worker does exactly n rounds
 *   -DSPURIOUS_WAKEUPS  a sleeping writer may retry at any time (safety only)
 *   -DNO_U3_ASSERT  drop the U3 assertion (to find a mutant's other bugs)
 *   -DNW= -DNF= -DNU=  number of writers / fair readers / unfair readers
 *
 * Granularity: each atomic{} is one atomic operation on sem->count, or one
 * stretch under sem->wait_lock between two count atomics.  A cmpxchg loop is
 * modelled at its linearization point (the successful cmpxchg); the lock
 * acquisition is merged into the first step under the lock and the unlock
 * into the last (acquire is a right mover, release a left mover); list
 * operations are merged with the next count atomic (the list is only read
 * under the wait_lock).
 */

#ifndef NW
#define NW	1		/* writers: down_write()/up_write() */
#endif
#ifndef NF
#define NF	2		/* fair readers: down_read_killable()/up_read() */
#endif
#ifndef NU
#define NU	3		/* unfair readers: down_read_unfair()/up_read_unfair() */
#endif
#define NPROC	(NW + NF + NU)
#define QMAX	NPROC		/* every task is queued at most once */
#define UNFAIR_MAX 2		/* RWSEM_UNFAIR_MAX (15 in the kernel) */

/* _pid layout: writers first, then fair readers, then unfair readers */
#define IS_WRITER(p)	((p) < NW)

#if defined(NAIVE) || defined(V1_SATURATION) || defined(NO_CLOSE)
#define NO_X		/* these rules have no "bypass closed" bit */
#endif

/* ------------------------------------------------------------------ */
/* sem->count, as separate fields updated together where the kernel    */
/* updates the one word with one atomic operation.                      */
/* ------------------------------------------------------------------ */
bit  cnt_W;		/* bit 0  RWSEM_WRITER_LOCKED */
bit  cnt_WAITERS;	/* bit 1  RWSEM_FLAG_WAITERS */
bit  cnt_HANDOFF;	/* bit 2  RWSEM_FLAG_HANDOFF */
byte cnt_U;		/* bits 3-6 unfair count (holders admitted unfairly) */
bit  cnt_X;		/* bit 7  unfair bypass closed */
byte cnt_R;		/* bits 8.. reader count: every bias in the count */

#define FAIR_CNT	(cnt_R - cnt_U)		/* rwsem_count_fair() */
#define READ_FAILED	(cnt_W || cnt_WAITERS || cnt_HANDOFF)	/* RWSEM_READ_FAILED_MASK */
#define COUNT_UNLOCKED	(!cnt_W && !cnt_WAITERS && !cnt_HANDOFF && cnt_U == 0 && !cnt_X && cnt_R == 0)

#ifdef NO_X
#define SET_X		skip
#define CLEAR_X		skip
#else
#define SET_X		cnt_X = 1
#define CLEAR_X		cnt_X = 0
#endif

/* sem->owner: only "is it RWSEM_READER_OWNED", for the steal heuristic */
#ifdef LIVENESS
bit owner_ro;
#define OWNER_READER	owner_ro = 1		/* rwsem_set_reader_owned() */
#define OWNER_WRITER	owner_ro = 0		/* rwsem_set_owner() */
/* "lock very likely owned by readers": don't steal */
#define QUEUE_HINT(rc, w)	((rc) > 1 && !(w) && owner_ro)
#define STEAL_BLOCKED(rc, w)	QUEUE_HINT(rc, w)
#else
/* safety: the owner test is a nondeterministic choice when rcnt > 1 */
#define OWNER_READER	skip
#define OWNER_WRITER	skip
#define QUEUE_HINT(rc, w)	((rc) > 1 && !(w))
#define STEAL_BLOCKED(rc, w)	false
#endif

/* ------------------------------------------------------------------ */
/* sem->wait_lock                                                       */
/* ------------------------------------------------------------------ */
#if defined(LIVENESS) && !defined(UNFAIR_WAIT_LOCK)
#define FIFO_WAIT_LOCK
#endif
#ifdef FIFO_WAIT_LOCK
/*
 * qspinlock is FIFO: spinners form a line and are served in order, so weak
 * fairness is enough to serve every spinner.  Positions (not ticket numbers)
 * keep the state canonical.
 */
bit  wait_lock;
byte wl_line;			/* tasks spinning */
byte wl_pos[NPROC];		/* 0: not spinning, k: k-th in line */
#define WL_ENTER	wl_line++; wl_pos[_pid] = wl_line
#define WL_QUEUE	atomic { WL_ENTER };
#define WL_ACQ		(wait_lock == 0 && wl_pos[_pid] == 1)
#define WL_TAKE		wait_lock = 1; wl_served()
#define WL_REL		wait_lock = 0
inline wl_served()
{
	gi = 0;
	do
	:: gi < NPROC ->
		if :: wl_pos[gi] > 0 -> wl_pos[gi]-- :: else -> skip fi;
		gi++
	:: else -> break
	od;
	gi = 0; wl_line--
}
#else
bit wait_lock;
#define WL_QUEUE
#define WL_ACQ		(wait_lock == 0)
#define WL_TAKE		wait_lock = 1
#define WL_REL		wait_lock = 0
#endif

/* ------------------------------------------------------------------ */
/* sem->wait_list: FIFO of task ids; per-task struct rwsem_waiter        */
/* ------------------------------------------------------------------ */
byte wq[QMAX];
byte wqlen;
bit  w_inq[NPROC];	/* on the wait_list */
bit  w_granted[NPROC];	/* reader: waiter.task == NULL (lock granted) */
bit  w_hset[NPROC];	/* waiter.handoff_set */
bit  w_woken[NW];	/* writer: woken by rwsem_mark_wake_writer() */
#ifdef LIVENESS
bit  w_timedout[NW];	/* writer: time_after(jiffies, waiter.timeout) */
#define W_TIMED_OUT(p)	w_timedout[p]
#define W_NOT_TIMED_OUT(p)	(!w_timedout[p])
#define W_TIMEOUT_ARM(p)	w_timedout[p] = 0
#else
#define W_TIMED_OUT(p)	true	/* nondeterministic: see rwsem_try_write_lock */
#define W_NOT_TIMED_OUT(p)	true
#define W_TIMEOUT_ARM(p)	skip
#endif
#ifdef V1_SATURATION
bit  w_unfair[NPROC];	/* waiter.unfair (v1 only) */
byte wk_slots;		/* v1: reserved unfair slots during a grant */
#endif

/*
 * -DSPURIOUS_WAKEUPS: a sleeping writer may return from schedule() at any
 * time and retry (also covers the handoff_set spin on the owner).  Safety
 * only: with it a writer never blocks, so it hides lost wakeups.
 */
#ifdef SPURIOUS_WAKEUPS
#define SPURIOUS_WAKEUP	true
#else
#define SPURIOUS_WAKEUP	false
#endif

/* wake types */
#define WAKE_ANY	0
#define WAKE_READERS	1
#define WAKE_READ_OWNED	2
#define WAKE_NONE	3

/*
 * rwsem_mark_wake() runs under the wait_lock in up to three count atomics:
 * the waker's speculative READER_BIAS, [v1: the slot reservation], and the
 * grant adjustment or the back-out.  Only one can be in progress (the
 * wait_lock serialises it), so its state is global.
 */
#define WK_IDLE		0
#define WK_GRANT	1	/* collect + adjustment pending */
#define WK_BACKOUT	2	/* speculative bias saw a writer: take it out */
#define WK_RESERVE	3	/* v1: rwsem_reserve_unfair_slots() pending */
byte wk_state;
bit  wk_spec;		/* a speculative bias of the waker is in the count */
bit  wk_woke;		/* wake_q non-empty */
byte wk_type;

/* scratch, only used inside one atomic step and reset to 0 there */
byte gi, gj, gn, gh, gp;
bit  tw_ok, gfirst;

/* ------------------------------------------------------------------ */
/* ghosts                                                               */
/* ------------------------------------------------------------------ */
byte g_nw;		/* writers holding the lock */
byte g_nr;		/* readers holding the lock (any kind, from the grant) */
byte g_settled;		/* settled fair holders */
byte g_passing;		/* passing biases of fair readers in flight */
byte g_wqw;		/* writers waiting (on the wait_list) */
#ifdef KILL_BUDGET
byte g_kills;		/* signals delivered so far (bounded in L1) */
#endif

#ifdef CHECK_TAIL
bit  g_tail;		/* a writer waits and no settled fair holder exists */
byte g_late;		/* unfair admissions since the tail interval began */
byte g_tpass;		/* fair passes in flight during the interval (saturates
			 * at 2: late <= 1 <= tpass is all FIX_TAIL needs) */
#ifndef NO_UPAST
hidden byte g_upast;	/* unfair admissions past a waiting writer: not part
			 * of the state (no property reads it), shown in trails;
			 * -DNO_UPAST drops it (pan -DBFS refuses hidden vars) */
#define UPAST_INC	if :: g_wqw > 0 && g_upast < 255 -> g_upast++ :: else -> skip fi
#define UPAST_RESET	if :: g_wqw == 0 -> g_upast = 0 :: else -> skip fi
#else
#define UPAST_INC	skip
#define UPAST_RESET	skip
#endif
/*
 * The interval opens when the last settled fair holder releases while a
 * writer waits (SETTLE_DEC), and closes when a settled fair holder appears
 * again or no writer waits any more (the writer acquired).
 */
#define TAIL_UPDATE							\
	if								\
	:: g_tail && (g_wqw == 0 || g_settled > 0) ->			\
		g_tail = 0; g_late = 0; g_tpass = 0			\
	:: else -> skip							\
	fi;								\
	UPAST_RESET
#define TAIL_OPEN							\
	if								\
	:: !g_tail && g_wqw > 0 && g_settled == 0 ->			\
		g_tail = 1; g_late = 0; g_tpass = g_passing		\
	:: else -> skip							\
	fi
#define TAIL_PASS	if :: g_tail && g_tpass < 2 -> g_tpass++ :: else -> skip fi
#define TAIL_UNFAIR							\
	UPAST_INC;							\
	if								\
	:: g_tail -> g_late++;						\
		assert(g_late <= g_tpass)	/* TAIL: late <= passes */ \
	:: else -> skip							\
	fi
#else
#define TAIL_UPDATE	skip
#define TAIL_OPEN	skip
#define TAIL_PASS	skip
#define TAIL_UNFAIR	skip
#endif

#define SETTLE_INC	g_settled++; TAIL_UPDATE
#define SETTLE_DEC	g_settled--; TAIL_OPEN

/* a reader now owns the lock (count already holds its bias) */
#define READER_HOLDS	assert(g_nw == 0); g_nr++
#define WRITER_HOLDS	assert(g_nw == 0 && g_nr == 0); g_nw++

/*
 * THE BOUND (U3), checked at every unfair admission, on the count the
 * admission was decided on: a waiting writer is only passed while a settled
 * fair holder exists, or while a fair reader's passing bias is in the
 * count and X was clear.
 */
#ifdef NO_U3_ASSERT
#define U3_BOUND	skip	/* to look for other violations of a mutant */
#else
#define U3_BOUND	assert(g_wqw == 0 || g_settled > 0 || (g_passing > 0 && !cnt_X))
#endif

/* ------------------------------------------------------------------ */
/* wait_list helpers (under wait_lock)                                  */
/* ------------------------------------------------------------------ */
inline rwsem_add_waiter(p)
{
	wq[wqlen] = p; wqlen++; w_inq[p] = 1; w_hset[p] = 0
}

inline list_del(p)
{
	gi = 0;
	do
	:: wq[gi] != p -> gi++
	:: else -> break
	od;
	do
	:: gi + 1 < wqlen -> wq[gi] = wq[gi + 1]; gi++
	:: else -> break
	od;
	wqlen--; wq[wqlen] = 0; w_inq[p] = 0; w_hset[p] = 0; gi = 0
}

/* number of fair reader waiters (the ones a grant will take) -> gn */
inline count_fair_waiters()
{
	gi = 0; gn = 0;
	do
	:: gi < wqlen ->
		if
#ifdef V1_SATURATION
		:: !IS_WRITER(wq[gi]) && !w_unfair[wq[gi]] -> gn++
#else
		:: !IS_WRITER(wq[gi]) -> gn++
#endif
		:: else -> skip
		fi;
		gi++
	:: else -> break
	od;
	gi = 0
}

/* ------------------------------------------------------------------ */
/* rwsem_mark_wake() and rwsem_mark_wake_readers()                      */
/* ------------------------------------------------------------------ */

/*
 * Second pass of rwsem_mark_wake_readers(): collect every reader waiter
 * (phase-fair: writers are skipped), one count adjustment, waiter->task =
 * NULL.  Includes the "head reader is always granted" check.
 */
inline rwsem_mark_wake_collect()
{
	gh = wq[0];		/* the head waiter, a reader */
	gj = 0; gn = 0;
	do
	:: gj < wqlen ->
		gp = wq[gj];
		if
		:: IS_WRITER(gp) -> gj++	/* RWSEM_WAITING_FOR_WRITE: skip */
#ifdef V1_SATURATION
		:: !IS_WRITER(gp) && w_unfair[gp] && wk_slots == 0 ->
			gj++			/* no slot: leave it in the queue */
		:: !IS_WRITER(gp) && w_unfair[gp] && wk_slots > 0 ->
			wk_slots--;		/* unfair holder, its U unit reserved */
			w_granted[gp] = 1; g_nr++; gn++;
			list_del(gp)
		:: !IS_WRITER(gp) && !w_unfair[gp] ->
#else
		:: else ->
#endif
			w_granted[gp] = 1; g_nr++; gn++;
			if
			:: !wk_spec -> SETTLE_INC	/* READ_OWNED: settled now */
			:: else -> skip			/* settled at the speculative add */
			fi;
			list_del(gp)
		fi
	:: else -> break
	od;
	assert(g_nw == 0);
	/* adjustment = woken * READER_BIAS - (the speculative bias) */
	cnt_R = cnt_R + gn - wk_spec;
#ifdef V1_SATURATION
	cnt_U = cnt_U - wk_slots;	/* unused reservations */
	wk_slots = 0;
#endif
	if
	:: wqlen == 0 ->
		cnt_WAITERS = 0; cnt_HANDOFF = 0; CLEAR_X
	:: else ->
		if
		:: gn > 0 -> cnt_HANDOFF = 0; CLEAR_X
		:: else -> skip
		fi
	fi;
	/* base invariant: a reader grant always grants the head waiter */
	assert(w_granted[gh] /* HEAD_GRANTED */);
	if :: gn > 0 -> wk_woke = 1 :: else -> skip fi;
	gh = 0; gn = 0; gj = 0; gp = 0;
	wk_spec = 0; wk_state = WK_IDLE
}

#ifdef V1_SATURATION
/* rwsem_reserve_unfair_slots(): a cmpxchg on the count of its own */
inline rwsem_reserve_unfair_slots()
{
	gi = 0; gn = 0;
	do
	:: gi < wqlen ->
		if
		:: !IS_WRITER(wq[gi]) && w_unfair[wq[gi]] -> gn++
		:: else -> skip
		fi;
		gi++
	:: else -> break
	od;
	if :: gn > UNFAIR_MAX -> gn = UNFAIR_MAX :: else -> skip fi;
	wk_slots = (gn < UNFAIR_MAX - cnt_U -> gn : UNFAIR_MAX - cnt_U);
	cnt_U = cnt_U + wk_slots;
	gi = 0; gn = 0
}
#endif

/*
 * rwsem_mark_wake(sem, wt), first atomic.  Caller holds the wait_lock and
 * the wait_list is not empty.  Leaves wk_state != WK_IDLE when further
 * atomics (rwsem_mark_wake_finish) are needed.
 */
inline rwsem_mark_wake_begin(wt)
{
	wk_type = wt;
	if
	:: IS_WRITER(wq[0]) ->
		/* rwsem_mark_wake_writer(): only RWSEM_WAKE_ANY wakes it */
		if
		:: wk_type == WAKE_ANY -> w_woken[wq[0]] = 1; wk_woke = 1
		:: else -> skip
		fi
	:: else ->
		if
		:: wk_type != WAKE_READ_OWNED ->
			/* oldcount = atomic_long_fetch_add(READER_BIAS): the
			 * waker's speculative bias */
			wk_spec = 1;
			if
			:: cnt_W -> wk_state = WK_BACKOUT
			:: else ->
				/* committed: the grantees own the lock from here */
				OWNER_READER;
				count_fair_waiters();
				g_settled = g_settled + gn; gn = 0; TAIL_UPDATE;
				wk_state = WK_GRANT
			fi;
			cnt_R++
		:: else ->
			wk_spec = 0; wk_state = WK_GRANT
		fi;
#ifdef V1_SATURATION
		if :: wk_state == WK_GRANT -> wk_state = WK_RESERVE :: else -> skip fi
#endif
	fi;
	wk_type = 0
}

/* the next atomic of rwsem_mark_wake() */
inline rwsem_mark_wake_finish()
{
	if
	:: wk_state == WK_BACKOUT ->
		/*
		 * atomic_long_add(-adjustment): take the speculative bias out;
		 * if the head reader has waited too long (nondeterministic),
		 * set HANDOFF in the same atomic.
		 */
		cnt_R--;
		if
		:: true -> skip
		:: true -> cnt_HANDOFF = 1; w_hset[wq[0]] = 1
		fi;
		wk_spec = 0; wk_state = WK_IDLE
#ifdef V1_SATURATION
	:: wk_state == WK_RESERVE ->
		rwsem_reserve_unfair_slots(); wk_state = WK_GRANT
#endif
	:: wk_state == WK_GRANT -> rwsem_mark_wake_collect()
	:: wk_state == WK_IDLE -> skip
	fi
}

/*
 * Each proctype has one copy of the remaining atomics of rwsem_mark_wake()
 * (label xx_mark_wake), entered with mw_ret = where to go after
 * raw_spin_unlock().  A call site is:
 *	atomic { ...; rwsem_mark_wake_begin(type); MW_CALL(xx, R_WHERE, where) }
 */
#define MW_CALL(pfx, code, dest)					\
	if								\
	:: wk_state == WK_IDLE -> wk_woke = 0; WL_REL; goto dest	\
	:: else -> mw_ret = code; goto pfx##_mark_wake			\
	fi

/* where to go after rwsem_mark_wake() + raw_spin_unlock() */
#define RET_w_top		1
#define RET_w_cond_wake		2	/* writer: keep the lock if nobody woken */
#define RET_fr_top		1
#define RET_fr_sleep		2
#define RET_fr_steal_woke	3
#define RET_ur_top		1
#define RET_ur_sleep		2
#define RET_ur_locked		3

/* ------------------------------------------------------------------ */
/* rwsem_try_write_lock(), under the wait_lock; result in tw_ok          */
/* ------------------------------------------------------------------ */
inline rwsem_try_write_lock(me)
{
	tw_ok = 0;
	if
	:: cnt_HANDOFF && w_hset[wq[0]] && wq[0] != me ->
		skip		/* honour the handoff of the first waiter */
	:: else ->
		if
		:: cnt_W || cnt_R > 0 ->	/* RWSEM_LOCK_MASK */
			if
			:: cnt_HANDOFF -> skip
			:: !cnt_HANDOFF && W_NOT_TIMED_OUT(me) -> skip
			:: !cnt_HANDOFF && W_TIMED_OUT(me) ->
				cnt_HANDOFF = 1; w_hset[wq[0]] = 1
			fi
		:: else ->
			cnt_W = 1; cnt_HANDOFF = 0;
			if
			:: wqlen == 1 -> cnt_WAITERS = 0; CLEAR_X	/* list_is_singular */
			:: else -> skip
			fi;
			list_del(me);
			tw_ok = 1
		fi
	fi
}

/* ================================================================== */
/* writers: down_write(); critical section; up_write()                  */
/* ================================================================== */
#if defined(ITER)
/* every worker does ITER rounds, then exits */
#define LOOP_VARS	byte it
#define ITER_DONE	(it >= ITER)
#define ITER_NEXT	it < ITER -> it++;
#elif defined(QUIESCE)
/* arrivals may stop at any time: a worker at its loop top may exit */
#define LOOP_VARS	skip
#define ITER_DONE	true
#define ITER_NEXT
#else
/* arrivals never stop */
#define LOOP_VARS	skip
#define ITER_DONE	false
#define ITER_NEXT
#endif

active [NW] proctype writer()
{
	byte mw_ret;		/* return point after rwsem_mark_wake() */
	LOOP_VARS;

w_top:
	if
	:: ITER_DONE -> goto w_exit
	:: atomic {
		ITER_NEXT
		/* rwsem_write_trylock(): cmpxchg(UNLOCKED -> WRITER_LOCKED) */
		if
		:: COUNT_UNLOCKED -> cnt_W = 1; OWNER_WRITER; WRITER_HOLDS; goto w_locked
		:: !COUNT_UNLOCKED -> skip	/* (no "else": first statement of an option) */
		fi
	   }
	fi;

	/* rwsem_down_write_slowpath() (optimistic spinning not modelled) */
	WL_QUEUE
	atomic {
		WL_ACQ -> WL_TAKE;
		rwsem_add_waiter(_pid);
		W_TIMEOUT_ARM(_pid); w_woken[_pid] = 0;
		g_wqw++; TAIL_UPDATE;
		if
		:: wqlen == 1 ->
			cnt_WAITERS = 1;	/* atomic_long_or(RWSEM_FLAG_WAITERS) */
			goto w_try_locked
		:: else -> skip
		fi;
		/* not first: rwsem_cond_wake_waiter(sem, atomic_long_read(&sem->count)) */
		if
		:: cnt_W -> goto w_try_locked
		:: else -> rwsem_mark_wake_begin((cnt_R > 0 -> WAKE_READERS : WAKE_ANY))
		fi;
		if
		:: wk_state == WK_IDLE && wk_woke -> wk_woke = 0; WL_REL; goto w_relock
		:: wk_state == WK_IDLE && !wk_woke -> goto w_try_locked
		:: else -> mw_ret = RET_w_cond_wake; goto w_mark_wake
		fi
	};

w_relock:
	/* wake_q was not empty: unlock, wake_up_q(), relock, then trylock */
	WL_QUEUE
	atomic {
		WL_ACQ -> WL_TAKE;
		w_woken[_pid] = 0;
		rwsem_try_write_lock(_pid);
		if
		:: tw_ok -> tw_ok = 0; g_wqw--; OWNER_WRITER; WRITER_HOLDS; TAIL_UPDATE; WL_REL; goto w_locked
		:: else -> WL_REL; goto w_sleep
		fi
	};

w_try_locked:
	/* for (;;) { if (rwsem_try_write_lock()) break; unlock; schedule(); lock; } */
	atomic {
		w_woken[_pid] = 0;
		rwsem_try_write_lock(_pid);
		if
		:: tw_ok -> tw_ok = 0; g_wqw--; OWNER_WRITER; WRITER_HOLDS; TAIL_UPDATE; WL_REL; goto w_locked
		:: else -> WL_REL
		fi
	};
w_sleep:
	/* schedule(): until rwsem_mark_wake_writer() puts us on a wake_q */
#ifdef FIFO_WAIT_LOCK
	atomic { w_woken[_pid] -> WL_ENTER };
#ifdef PROGRESS_WAKE
progress_woken:		/* L2: the writer has been woken */
#endif
	atomic {
		WL_ACQ -> WL_TAKE;
#else
	atomic {
		(w_woken[_pid] || SPURIOUS_WAKEUP) && WL_ACQ -> WL_TAKE;
#endif
		w_woken[_pid] = 0;
		rwsem_try_write_lock(_pid);
		if
		:: tw_ok -> tw_ok = 0; g_wqw--; OWNER_WRITER; WRITER_HOLDS; TAIL_UPDATE; WL_REL; goto w_locked
		:: else -> WL_REL; goto w_sleep
		fi
	};

w_locked:
	/* write critical section */
progress_writer:
	atomic {
		/* __up_write(): fetch_add(-WRITER_LOCKED) */
		g_nw--; cnt_W = 0;
		if
		:: cnt_WAITERS -> skip
		:: else -> goto w_top
		fi
	};
	/* rwsem_wake() */
	WL_QUEUE
	atomic {
		WL_ACQ -> WL_TAKE;
		if
		:: wqlen > 0 -> rwsem_mark_wake_begin(WAKE_ANY)
		:: else -> skip
		fi;
		MW_CALL(w, RET_w_top, w_top)
	};
w_mark_wake:
	/* the remaining atomics of rwsem_mark_wake(), then unlock and return */
	atomic {
		rwsem_mark_wake_finish();
		if
		:: wk_state != WK_IDLE -> goto w_mark_wake
		:: wk_state == WK_IDLE && mw_ret == RET_w_top ->
			mw_ret = 0; wk_woke = 0; WL_REL; goto w_top
		:: wk_state == WK_IDLE && mw_ret == RET_w_cond_wake && wk_woke ->
			/* wake_q not empty: unlock, wake_up_q(), relock */
			mw_ret = 0; wk_woke = 0; WL_REL; goto w_relock
		:: wk_state == WK_IDLE && mw_ret == RET_w_cond_wake && !wk_woke ->
			mw_ret = 0; goto w_try_locked
		fi
	};
w_exit:
	skip
}

/*
 * Queueing part of rwsem_down_read_slowpath(), under the wait_lock:
 * rwsem_add_waiter(), then count = atomic_long_add_return(-READER_BIAS
 * [+ WAITERS]): the passing bias ends here.  Then (v2) the close check and
 * rwsem_cond_wake_waiter(count).
 */
inline fair_reader_enqueue()
{
	rwsem_add_waiter(_pid); w_granted[_pid] = 0;
	cnt_R--; g_passing--;
	if :: wqlen == 1 -> cnt_WAITERS = 1 :: else -> skip fi;
#ifndef NO_X
	/* only unfair holders left while others wait: close the bypass */
	xhint = (cnt_U > 0 && FAIR_CNT == 0 && cnt_WAITERS);
#endif
	/* rwsem_cond_wake_waiter(count) */
	wt = (cnt_W -> WAKE_NONE : (cnt_R > 0 -> WAKE_READERS : WAKE_ANY));
	if
	:: xhint -> goto fr_close
	:: !xhint && wt != WAKE_NONE -> goto fr_cond_wake
	:: else -> wt = 0; WL_REL; goto fr_sleep
	fi
}

/* ================================================================== */
/* fair readers: down_read_killable(); critical section; up_read()      */
/* ================================================================== */
active [NF] proctype fair_reader()
{
	byte rcnt;		/* rwsem_count_readers(count) from the fast path */
	bit  c_w, c_h, c_wt;	/* WRITER_LOCKED, HANDOFF, WAITERS in that count */
	bit  xpend;		/* steal: X was set, clear it */
	bit  xhint;		/* queued, only unfair holders left: close */
	byte wt;		/* rwsem_cond_wake_waiter() wake type */
	byte mw_ret;		/* return point after rwsem_mark_wake() */
	LOOP_VARS;

fr_top:
	if
	:: ITER_DONE -> goto fr_exit
	:: atomic {
		ITER_NEXT
		/* rwsem_read_trylock(): atomic_long_add_return(READER_BIAS) */
		cnt_R++;
		if
		:: !READ_FAILED -> SETTLE_INC; OWNER_READER; READER_HOLDS; goto fr_locked
		:: else ->
			/* slowpath, with the passing bias in the count */
			g_passing++; TAIL_PASS;
			rcnt = cnt_R; c_w = cnt_W; c_h = cnt_HANDOFF; c_wt = cnt_WAITERS
		fi
	   }
	fi;

	/* rwsem_down_read_slowpath(sem, count): steal or queue */
	atomic {
		if
		:: QUEUE_HINT(rcnt, c_w) ->
			/* owner is READER_OWNED && rcnt > 1 && !WRITER: queue */
			rcnt = 0; c_w = 0; c_h = 0; c_wt = 0; goto fr_queue
		:: !STEAL_BLOCKED(rcnt, c_w) && !c_w && !c_h ->
			/* reader optimistic lock stealing: keep the bias */
			g_passing--; SETTLE_INC; OWNER_READER; READER_HOLDS;
			xpend = cnt_X;
			if
			:: rcnt == 1 && c_wt -> rcnt = 0; c_w = 0; c_h = 0; c_wt = 0; goto fr_steal_wake
			:: else -> rcnt = 0; c_w = 0; c_h = 0; c_wt = 0;
				if :: xpend -> goto fr_steal_clear_x :: else -> goto fr_locked fi
			fi
		:: else ->
			rcnt = 0; c_w = 0; c_h = 0; c_wt = 0; goto fr_queue
		fi
	};

fr_steal_wake:
	/* rwsem_read_owned_wake(): rcnt == 1 && WAITERS */
	WL_QUEUE
	atomic {
		WL_ACQ -> WL_TAKE;
		if
		:: wqlen > 0 -> rwsem_mark_wake_begin(WAKE_READ_OWNED)
		:: else -> skip
		fi;
		MW_CALL(fr, RET_fr_steal_woke, fr_steal_woke)
	};
fr_steal_woke:
	if :: xpend -> goto fr_steal_clear_x :: else -> goto fr_locked fi;

fr_steal_clear_x:
	/* a settled fair holder now exists: the extra atomic andnot(X) */
	atomic { xpend = 0; CLEAR_X; goto fr_locked };

fr_queue:
	WL_QUEUE
	atomic {
		WL_ACQ -> WL_TAKE;
		if
		:: wqlen == 0 && !cnt_W ->
			/* list_empty() and no writer: keep the passing bias */
			g_passing--; SETTLE_INC; OWNER_READER; READER_HOLDS; CLEAR_X;
			WL_REL; goto fr_locked
		:: wqlen == 0 && cnt_W ->
			/* adjustment += RWSEM_FLAG_WAITERS; the add is a later atomic */
			goto fr_enqueue_locked
		:: else -> fair_reader_enqueue()
		fi
	};
fr_enqueue_locked:
	atomic { fair_reader_enqueue() };
fr_close:
	/* cmpxchg loop: while WAITERS && fair == 0 && U > 0 && !X: set X */
	atomic {
		xhint = 0;
		if
		:: cnt_WAITERS && FAIR_CNT == 0 && cnt_U > 0 && !cnt_X -> SET_X
		:: else -> skip
		fi;
		if
		:: wt != WAKE_NONE -> goto fr_cond_wake
		:: else -> wt = 0; WL_REL; goto fr_sleep
		fi
	};
fr_cond_wake:
	atomic {
		rwsem_mark_wake_begin(wt); wt = 0;
		MW_CALL(fr, RET_fr_sleep, fr_sleep)
	};

fr_sleep:
	/* wait to be given the lock (TASK_KILLABLE) */
	if
	:: atomic { w_granted[_pid] -> w_granted[_pid] = 0; goto fr_locked }
	:: /* signal_pending_state(): fatal signal (nondeterministic) */
#ifdef KILL_BUDGET
		atomic { g_kills < KILL_BUDGET -> g_kills++ };
#endif
		WL_QUEUE
		atomic {
			WL_ACQ -> WL_TAKE;
			if
			:: w_granted[_pid] -> w_granted[_pid] = 0; WL_REL; goto fr_locked
			:: else -> skip
			fi;
			/* out_nolock: rwsem_del_wake_waiter() */
			gfirst = (wq[0] == _pid);
			list_del(_pid);
			if
			:: wqlen == 0 -> cnt_WAITERS = 0; cnt_HANDOFF = 0; CLEAR_X; gfirst = 0
			:: else -> skip
			fi;
			if
			:: gfirst -> gfirst = 0; rwsem_mark_wake_begin(WAKE_ANY)
			:: else -> skip
			fi;
			MW_CALL(fr, RET_fr_top, fr_top)	/* -EINTR */
		}
	fi;

fr_locked:
	/* read critical section */
	atomic {
		/* __up_read(): atomic_long_add_return(-READER_BIAS) */
		g_nr--; cnt_R--; SETTLE_DEC;
		if
		:: !cnt_W && cnt_R == 0 && cnt_WAITERS -> skip
		:: else -> goto fr_top
		fi
	};
	/* rwsem_wake() */
	WL_QUEUE
	atomic {
		WL_ACQ -> WL_TAKE;
		if
		:: wqlen > 0 -> rwsem_mark_wake_begin(WAKE_ANY)
		:: else -> skip
		fi;
		MW_CALL(fr, RET_fr_top, fr_top)
	};
fr_mark_wake:
	/* the remaining atomics of rwsem_mark_wake(), then unlock and return */
	atomic {
		rwsem_mark_wake_finish();
		if
		:: wk_state != WK_IDLE -> goto fr_mark_wake
		:: wk_state == WK_IDLE && mw_ret == RET_fr_top ->
			mw_ret = 0; wk_woke = 0; WL_REL; goto fr_top
		:: wk_state == WK_IDLE && mw_ret == RET_fr_sleep ->
			mw_ret = 0; wk_woke = 0; WL_REL; goto fr_sleep
		:: wk_state == WK_IDLE && mw_ret == RET_fr_steal_woke ->
			mw_ret = 0; wk_woke = 0; WL_REL; goto fr_steal_woke
		fi
	};
fr_exit:
	skip
}

/* ================================================================== */
/* unfair readers: mode = down_read_unfair(); cs; up_read_unfair(mode)  */
/* ================================================================== */

#if defined(NAIVE)
/* 2010: ignore waiting writers entirely */
#define BYPASS_OK	(!cnt_W && cnt_U < UNFAIR_MAX)
#else
/* v2: in the shadow of a fair holder only, while the bypass is open */
#define BYPASS_OK	(!cnt_W && cnt_WAITERS && !cnt_X && cnt_U < UNFAIR_MAX && FAIR_CNT > 0)
#endif

#ifdef FIX_TAIL
#define BYPASS_CLOSES	SET_X
#else
#define BYPASS_CLOSES	skip
#endif

/* unfair admission: reader bias + unfair unit in one cmpxchg */
#define UNFAIR_ADMIT							\
	U3_BOUND; TAIL_UNFAIR;						\
	cnt_R++; cnt_U++; um = 1; OWNER_READER; READER_HOLDS

#ifdef V1_SATURATION
/* v1 rwsem_unfair_may_read() */
#define V1_MAY_READ							\
	(!cnt_W && cnt_U < UNFAIR_MAX &&				\
	 (!cnt_WAITERS || FAIR_CNT > 0 || (cnt_R == 0 && !cnt_HANDOFF)))
#endif

active [NU] proctype unfair_reader()
{
	bit  um;		/* mode returned by down_read_unfair(): UNFAIR */
	bit  steal;		/* down_read() would steal from here */
	bit  rowake;		/* rwsem_unfair_admitted(): read-owned wake */
	byte wt;
	byte mw_ret;		/* return point after rwsem_mark_wake() */
	LOOP_VARS;

ur_top:
	if
	:: ITER_DONE -> goto ur_exit
	:: atomic {
		ITER_NEXT
#ifdef V1_SATURATION
		/* rwsem_unfair_fast_trylock() */
		if
		:: !READ_FAILED && cnt_U < UNFAIR_MAX -> UNFAIR_ADMIT; goto ur_locked
		:: READ_FAILED || cnt_U >= UNFAIR_MAX -> skip
		fi
#else
		/* lockless: cmpxchg(c -> c + READER_BIAS), mode FAIR */
		if
		:: !READ_FAILED -> cnt_R++; SETTLE_INC; OWNER_READER; READER_HOLDS; goto ur_locked
		:: READ_FAILED -> skip
		fi
#endif
	   }
	fi;

#ifdef V1_SATURATION
	/* rwsem_unfair_read_trylock(), lockless */
	atomic {
		if
		:: V1_MAY_READ ->
			rowake = (cnt_WAITERS && FAIR_CNT == 0);
			UNFAIR_ADMIT;
			if :: rowake -> goto ur_admitted_wake :: else -> goto ur_locked fi
		:: else -> skip
		fi
	};
	WL_QUEUE
	atomic {
		WL_ACQ -> WL_TAKE;
		/* look again under the wait_lock */
		if
		:: V1_MAY_READ ->
			rowake = (cnt_WAITERS && FAIR_CNT == 0);
			UNFAIR_ADMIT; WL_REL;
			if :: rowake -> goto ur_admitted_wake :: else -> goto ur_locked fi
		:: else -> skip
		fi;
		/* queue as an UNFAIR waiter: adjustment = 0 [+ WAITERS] */
		rwsem_add_waiter(_pid); w_granted[_pid] = 0; w_unfair[_pid] = 1;
		if :: wqlen == 1 -> cnt_WAITERS = 1 :: else -> skip fi;
		wt = (cnt_W -> WAKE_NONE : (cnt_R > 0 -> WAKE_READERS : WAKE_ANY));
		if
		:: wt != WAKE_NONE -> goto ur_cond_wake
		:: else -> wt = 0; WL_REL; goto ur_sleep
		fi
	};
ur_admitted_wake:
	/* rwsem_unfair_admitted() -> rwsem_read_owned_wake() */
	WL_QUEUE
	atomic {
		WL_ACQ -> WL_TAKE; rowake = 0;
		if
		:: wqlen > 0 -> rwsem_mark_wake_begin(WAKE_READ_OWNED)
		:: else -> skip
		fi;
		MW_CALL(ur, RET_ur_locked, ur_locked)
	};
#else /* !V1_SATURATION */

#ifdef LOCKLESS
	/* mutant: the bypass decided without the wait_lock */
	atomic {
		if
		:: BYPASS_OK -> UNFAIR_ADMIT; BYPASS_CLOSES; goto ur_locked
		:: else -> skip
		fi
	};
#endif

	/* slowpath: every decision is taken under the wait_lock */
	WL_QUEUE
	atomic {
		WL_ACQ -> WL_TAKE;
		if
		:: BYPASS_OK -> UNFAIR_ADMIT; BYPASS_CLOSES; WL_REL; goto ur_locked
		:: else -> skip
		fi;
		/* would down_read() steal here?  (rcnt would be cnt_R + 1) */
		if
		:: !STEAL_BLOCKED(cnt_R + 1, cnt_W) && !cnt_W && !cnt_HANDOFF -> steal = 1
		:: QUEUE_HINT(cnt_R + 1, cnt_W) -> steal = 0
		:: else -> steal = 0
		fi;
		if
		:: steal ->
			/* steal: cmpxchg(+READER_BIAS), X cleared in the same cmpxchg */
			steal = 0;
			rowake = (cnt_R == 0 && cnt_WAITERS);
			cnt_R++; CLEAR_X; SETTLE_INC; OWNER_READER; READER_HOLDS;
			if
			:: rowake -> rowake = 0; goto ur_steal_wake
			:: else -> WL_REL; goto ur_locked
			fi
		:: !steal && wqlen == 0 && !cnt_W ->
			/* queue empty: cmpxchg(+READER_BIAS) */
			cnt_R++; SETTLE_INC; OWNER_READER; READER_HOLDS; WL_REL; goto ur_locked
		:: else -> skip
		fi;
#ifndef NAIVE
		/* it saw no fair holder: the bypass closes (cmpxchg c -> c|X) */
		if
		:: !cnt_W && cnt_WAITERS && FAIR_CNT == 0 && !cnt_X -> SET_X
		:: else -> skip
		fi;
#endif
		/* enqueue as a FAIR waiter */
		rwsem_add_waiter(_pid); w_granted[_pid] = 0;
		if :: wqlen == 1 -> cnt_WAITERS = 1 :: else -> skip fi;
		wt = (cnt_W -> WAKE_NONE : (cnt_R > 0 -> WAKE_READERS : WAKE_ANY));
		if
		:: wt != WAKE_NONE -> goto ur_cond_wake
		:: else -> wt = 0; WL_REL; goto ur_sleep
		fi
	};
ur_steal_wake:
	/* steal with rcnt == 1 && WAITERS: rwsem_mark_wake(READ_OWNED), lock held */
	atomic {
		rwsem_mark_wake_begin(WAKE_READ_OWNED);
		MW_CALL(ur, RET_ur_locked, ur_locked)
	};
#endif /* !V1_SATURATION */

ur_cond_wake:
	atomic {
		rwsem_mark_wake_begin(wt); wt = 0;
		MW_CALL(ur, RET_ur_sleep, ur_sleep)
	};

ur_sleep:
	/* granted as a fair reader (v1: an unfair waiter gets an unfair slot) */
	atomic {
		w_granted[_pid] -> w_granted[_pid] = 0;
#ifdef V1_SATURATION
		um = w_unfair[_pid]; w_unfair[_pid] = 0;
#endif
		goto ur_locked
	};

ur_locked:
	/* read critical section, then up_read_unfair(mode) */
	if
	:: atomic {
		!um ->
		/* mode FAIR: __up_read() */
		g_nr--; cnt_R--; SETTLE_DEC;
		if
		:: !cnt_W && cnt_R == 0 && cnt_WAITERS -> goto ur_wake
		:: else -> goto ur_top
		fi
	   }
	:: atomic {
		um ->
		/* mode UNFAIR: c' = fetch_add(-(READER_BIAS + UNFAIR_BIAS)) */
		um = 0; g_nr--; cnt_R--;
#ifdef V1_SATURATION
		if
		:: cnt_WAITERS && !cnt_W && cnt_R == 0 -> cnt_U--; goto ur_wake
		:: cnt_WAITERS && !(!cnt_W && cnt_R == 0) && cnt_U == UNFAIR_MAX -> cnt_U--; goto ur_wake
		:: else -> cnt_U--; goto ur_top
		fi
#else
		cnt_U--;
		if
		:: cnt_WAITERS && !cnt_W && cnt_R == 0 -> goto ur_wake
#ifndef NO_X
		:: cnt_WAITERS && !(!cnt_W && cnt_R == 0) && FAIR_CNT == 0 && cnt_U > 0 ->
			goto ur_close
#endif
		:: else -> goto ur_top
		fi
#endif
	   }
	fi;

ur_close:
	/* close: cmpxchg loop while WAITERS && fair == 0 && U > 0 && !X: set X */
	atomic {
		if
		:: cnt_WAITERS && FAIR_CNT == 0 && cnt_U > 0 && !cnt_X -> SET_X
		:: else -> skip
		fi;
		goto ur_top
	};

ur_wake:
	/* rwsem_wake() */
	WL_QUEUE
	atomic {
		WL_ACQ -> WL_TAKE;
		if
		:: wqlen > 0 -> rwsem_mark_wake_begin(WAKE_ANY)
		:: else -> skip
		fi;
		MW_CALL(ur, RET_ur_top, ur_top)
	};
ur_mark_wake:
	/* the remaining atomics of rwsem_mark_wake(), then unlock and return */
	atomic {
		rwsem_mark_wake_finish();
		if
		:: wk_state != WK_IDLE -> goto ur_mark_wake
		:: wk_state == WK_IDLE && mw_ret == RET_ur_top ->
			mw_ret = 0; wk_woke = 0; WL_REL; goto ur_top
		:: wk_state == WK_IDLE && mw_ret == RET_ur_sleep ->
			mw_ret = 0; wk_woke = 0; WL_REL; goto ur_sleep
		:: wk_state == WK_IDLE && mw_ret == RET_ur_locked ->
			mw_ret = 0; wk_woke = 0; WL_REL; goto ur_locked
		fi
	};
ur_exit:
	skip
}

#ifdef LIVENESS
/* time passes: a queued writer's timeout eventually expires (weak fairness) */
active proctype jiffies()
{
end_jiffies:
	do
	:: atomic { w_inq[0] && !w_timedout[0] -> w_timedout[0] = 1 }
#if NW > 1
	:: atomic { w_inq[1] && !w_timedout[1] -> w_timedout[1] = 1 }
#endif
	od
}
#endif

/* ================================================================== */
/* invariants of the lock word (safety runs)                            */
/* ================================================================== */
#ifdef V1_SATURATION
#define INV_U	true	/* v1: reserved slots make U > R transiently */
#else
#define INV_U	(cnt_U <= cnt_R)
#endif
#define INVARIANT							\
	((!cnt_X || cnt_WAITERS) &&		/* X => WAITERS */	\
	 (cnt_WAITERS == (wqlen > 0)) &&	/* WAITERS <=> queue */	\
	 (!cnt_HANDOFF || cnt_WAITERS) &&				\
	 INV_U &&							\
	 (g_nw <= 1) &&							\
	 (!cnt_W || g_nr == 0) &&					\
	 (wk_state != WK_IDLE || FAIR_CNT == g_settled + g_passing))

#ifndef LIVENESS
active proctype monitor()
{
end_monitor:
	atomic { !(INVARIANT) -> assert(INVARIANT) }
}
#endif

/* ================================================================== */
/* liveness: every waiter eventually leaves the wait_list               */
/* ================================================================== */
#ifdef LTL_WAITERS
#if NPROC == 4
ltl waiters { ([]<> !w_inq[0]) && ([]<> !w_inq[1]) && ([]<> !w_inq[2]) && ([]<> !w_inq[3]) }
#elif NPROC == 2
ltl waiters { ([]<> !w_inq[0]) && ([]<> !w_inq[1]) }
#elif NPROC == 5
ltl waiters { ([]<> !w_inq[0]) && ([]<> !w_inq[1]) && ([]<> !w_inq[2]) && ([]<> !w_inq[3]) && ([]<> !w_inq[4]) }
#elif NPROC == 6
ltl waiters { ([]<> !w_inq[0]) && ([]<> !w_inq[1]) && ([]<> !w_inq[2]) && ([]<> !w_inq[3]) && ([]<> !w_inq[4]) && ([]<> !w_inq[5]) }
#endif
#endif
