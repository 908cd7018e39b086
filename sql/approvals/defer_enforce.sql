-- fail-safely, before step 10 of a dry run that writes no application (a
-- --dry-run or the rehearsal of --plan-out) where the enforcing trigger is
-- installed: every other deferred trigger fires at the end of its
-- statement from now on (as step 11's SET CONSTRAINTS ALL IMMEDIATE would
-- make it), and the enforcing one only at COMMIT, which a dry run never
-- reaches. Step 11's message then leaves SET CONSTRAINTS out.
SET CONSTRAINTS ALL IMMEDIATE;
SET CONSTRAINTS :"schema".pushleft_approvals_enforce DEFERRED
