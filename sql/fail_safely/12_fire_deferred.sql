-- Step 11, first in its message: fire every deferred constraint trigger
-- now, before the guard's final reads, instead of at COMMIT where nothing
-- checks what they do.
SET CONSTRAINTS ALL IMMEDIATE
