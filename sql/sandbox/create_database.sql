-- The sandbox's own database, in its private throwaway cluster.
CREATE DATABASE sandbox
