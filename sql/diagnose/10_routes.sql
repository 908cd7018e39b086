-- 4. Routes.
SELECT hostname, route_generation, status
FROM :"schema".ingress_analytics_routes
WHERE deployment_id = $1
ORDER BY hostname, route_generation
