"""Custom collective schedules: a format of our own and a validator that proves one (issue 22)."""
