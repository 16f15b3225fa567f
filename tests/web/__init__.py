"""Tests of xwcp/web/: the builder's JSON API and WebSockets, its workbench, and the page in a real browser."""
