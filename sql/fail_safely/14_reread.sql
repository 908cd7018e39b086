-- Step 11, last in its message (the read-back of step 12): just before
-- COMMIT, what the database holds for the deployment and for the event
-- written: status, kind and payload must be what was written, whatever
-- fired since. The message carries no parameters, so the ids are those the
-- write of step 10 left in a setting of this transaction; `written`
-- returns it, and the tool refuses unless it names exactly the ids it
-- wrote. One JSON document.
WITH written AS (
    SELECT nullif(current_setting('pushleft_controller.written', true), '') AS ids
)
SELECT json_build_object(
           'written', w.ids,
           'status', d.status,
           'event_found', e.id IS NOT NULL,
           'deployment_id', e.deployment_id,
           'sequence', e.sequence,
           'kind', e.kind,
           'payload', e.payload,
           'occurred_at', e.occurred_at) AS reread
FROM written w
JOIN :"schema".deployments d ON d.id = split_part(w.ids, ' ', 1)::uuid
LEFT JOIN :"schema".deployment_events e ON e.id = split_part(w.ids, ' ', 2)::uuid
