"""The domain: the tables (mesa), the turmas and the torneios, over the stored rows."""
