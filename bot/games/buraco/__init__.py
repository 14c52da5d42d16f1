"""Buraco Aberto at the table (RULES §17): the hand keyboard and what its buttons play, the table and event
texts, the timer's move, the computers' turns and the stats a deal earns."""
