-- The look-alikes of `planted.rs`, created by the attacker's role in
-- @schema@ (its helper functions in evil). Runs with search_path =
-- pg_catalog, pg_temp, so that nothing planted so far interferes. Every
-- look-alike first calls evil.mark('what'), then does what the built-in does
-- (calling it by its qualified name).
DO $do$
DECLARE
    target text := @schema@;
    r record;
    t text;
    res text;
    fn text;
    args text;
    n int := 0;
    parts text[];
BEGIN
    -- Functions: exact copies of every overload with plain types.
    FOR r IN
        SELECT p.oid, p.proname::text AS name, p.pronargs,
               pg_get_function_identity_arguments(p.oid) AS args,
               format_type(p.prorettype, NULL) AS ret
        FROM pg_proc p
        WHERE p.pronamespace = 'pg_catalog'::regnamespace
          AND p.prokind = 'f' AND NOT p.proretset AND p.provariadic = 0
          AND p.proargmodes IS NULL
          AND p.proname::text = ANY (@functions@)
          AND NOT EXISTS (SELECT FROM pg_type ty
                          WHERE ty.typtype = 'p'
                            AND (ty.oid = p.prorettype OR ty.oid = ANY (p.proargtypes::oid[])))
    LOOP
        SELECT coalesce(string_agg('$' || g, ', ' ORDER BY g), '') INTO args
        FROM generate_series(1, r.pronargs) g;
        EXECUTE format(
            'CREATE FUNCTION %I.%I(%s) RETURNS %s LANGUAGE plpgsql AS %L',
            target, r.name, r.args, r.ret,
            CASE WHEN r.ret = 'void' THEN
                format('BEGIN PERFORM evil.mark(%L); PERFORM pg_catalog.%I(%s); END',
                       r.name || '(' || r.args || ')', r.name, args)
            ELSE
                format('BEGIN PERFORM evil.mark(%L); RETURN pg_catalog.%I(%s); END',
                       r.name || '(' || r.args || ')', r.name, args)
            END);
    END LOOP;

    -- Aggregates over each type the built-in takes (an exact copy, or a
    -- typed overload of a polymorphic one): collect into an array, then the
    -- built-in over its elements.
    FOREACH fn IN ARRAY @aggregates@ LOOP
        FOREACH t IN ARRAY @types@ LOOP
            BEGIN
                EXECUTE format('SELECT pg_catalog.pg_typeof(pg_catalog.%I(x))::text FROM (SELECT NULL::%s AS x) s',
                               fn, t) INTO res;
            EXCEPTION WHEN OTHERS THEN
                CONTINUE;
            END;
            n := n + 1;
            EXECUTE format(
                'CREATE FUNCTION evil.%I(s %s[], v %s) RETURNS %s[] LANGUAGE plpgsql AS %L',
                'agg_step_' || n, t, t, t,
                format('BEGIN PERFORM evil.mark(%L); RETURN pg_catalog.array_append(s, v); END',
                       fn || '(' || t || ')'));
            EXECUTE format(
                'CREATE FUNCTION evil.%I(s %s[]) RETURNS %s LANGUAGE plpgsql AS %L',
                'agg_final_' || n, t, res,
                format('BEGIN RETURN (SELECT pg_catalog.%I(x) FROM pg_catalog.unnest(s) AS u(x)); END', fn));
            EXECUTE format('CREATE AGGREGATE %I.%I(%s) (SFUNC = evil.%I, STYPE = %s[], FINALFUNC = evil.%I)',
                           target, fn, t, 'agg_step_' || n, t, 'agg_final_' || n);
        END LOOP;
    END LOOP;
    CREATE FUNCTION evil.count_star_step(s bigint) RETURNS bigint LANGUAGE plpgsql
        AS $f$ BEGIN PERFORM evil.mark('count(*)'); RETURN s OPERATOR(pg_catalog.+) 1; END $f$;
    EXECUTE format('CREATE AGGREGATE %I.count(*) (SFUNC = evil.count_star_step, STYPE = bigint, INITCOND = %L)',
                   target, '0');

    -- Typed overloads of polymorphic functions.
    FOREACH fn IN ARRAY @polymorphic@ LOOP
        parts := string_to_array(fn, '|');
        FOREACH t IN ARRAY @types@ LOOP
            SELECT coalesce(string_agg('$' || g, ', ' ORDER BY g), '') INTO args
            FROM generate_series(1, array_length(string_to_array(parts[2], ','), 1)) g;
            EXECUTE format(
                'CREATE FUNCTION %I.%I(%s) RETURNS %s LANGUAGE plpgsql AS %L',
                target, parts[1], replace(parts[2], '_T_', t), replace(parts[3], '_T_', t),
                CASE WHEN parts[3] LIKE 'SETOF%' THEN
                    format('BEGIN PERFORM evil.mark(%L); RETURN QUERY SELECT pg_catalog.%I(%s); END',
                           parts[1] || '(' || replace(parts[2], '_T_', t) || ')', parts[1], args)
                ELSE
                    format('BEGIN PERFORM evil.mark(%L); RETURN pg_catalog.%I(%s); END',
                           parts[1] || '(' || replace(parts[2], '_T_', t) || ')', parts[1], args)
                END);
        END LOOP;
    END LOOP;

    -- Binary operators between the types, and typed array operators.
    FOR r IN
        SELECT o.oid, o.oprname::text AS name, format_type(o.oprleft, NULL) AS l,
               format_type(o.oprright, NULL) AS rt, format_type(o.oprresult, NULL) AS ret
        FROM pg_operator o
        WHERE o.oprnamespace = 'pg_catalog'::regnamespace AND o.oprkind = 'b'
          AND o.oprcode <> 0 AND o.oprname::text = ANY (@operators@)
          AND o.oprleft = ANY (ARRAY(SELECT x::regtype::oid FROM unnest(@types@) x))
          AND o.oprright = ANY (ARRAY(SELECT x::regtype::oid FROM unnest(@types@) x))
        UNION ALL
        SELECT NULL, op, ty || '[]', ty || '[]', 'boolean'
        FROM unnest(ARRAY['=', '<>', '@>', '<@', '&&']) op,
             unnest(ARRAY['text', 'uuid', 'bigint', 'integer', 'oid', 'name']) ty
    LOOP
        n := n + 1;
        EXECUTE format(
            'CREATE FUNCTION evil.%I(%s, %s) RETURNS %s LANGUAGE plpgsql AS %L',
            'op_' || n, r.l, r.rt, r.ret,
            format('BEGIN PERFORM evil.mark(%L); RETURN $1 OPERATOR(pg_catalog.%s) $2; END',
                   r.l || ' ' || r.name || ' ' || r.rt, r.name));
        EXECUTE format('CREATE OPERATOR %I.%s (LEFTARG = %s, RIGHTARG = %s, FUNCTION = evil.%I)',
                       target, r.name, r.l, r.rt, 'op_' || n);
    END LOOP;

    -- Relations: a view of the same name that records each row read.
    FOREACH t IN ARRAY @relations@ LOOP
        res := CASE WHEN t LIKE 'pg\_%' THEN 'pg_catalog.' ELSE 'public.' END || quote_ident(t);
        CONTINUE WHEN to_regclass(res) IS NULL;
        -- Every column but those of a pseudo-type (a view cannot have one).
        SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum) INTO args
        FROM pg_attribute a JOIN pg_type ty ON ty.oid = a.atttypid
        WHERE a.attrelid = to_regclass(res) AND a.attnum > 0 AND NOT a.attisdropped
          AND ty.typtype <> 'p';
        EXECUTE format('CREATE VIEW %I.%I AS SELECT %s FROM %s WHERE evil.mark(%L)',
                       target, t, args, res, 'relation ' || t);
    END LOOP;

    -- Types: a domain of the same name whose CHECK records each value.
    FOREACH t IN ARRAY @domains@ LOOP
        CONTINUE WHEN to_regtype('pg_catalog.' || t) IS NULL;
        EXECUTE format('CREATE DOMAIN %I.%I AS pg_catalog.%I CHECK (evil.mark(%L))',
                       target, t, t, 'type ' || t);
    END LOOP;
END
$do$
