"""Browser tests (Playwright driving Debian Chromium against the real server)."""
