"""Shop knowledge: the catalogue and the shop's pages, imported, chunked and searched per site,
so each answer can hold excerpts retrieved with the conversation's memory (DESIGN.md
"Knowledge in the window")."""
