# Slim, non-root image of the bot; the SQLite database lives on the /data volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/bura.sqlite3

WORKDIR /app
# The locked dependencies first: a change to the code does not install them again.
COPY requirements.lock ./
RUN pip install --no-cache-dir -r requirements.lock
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
COPY locales ./locales
RUN pip install --no-cache-dir --no-deps . \
    && useradd --system --uid 10001 --home /app bura \
    && mkdir -p /data && chown bura /data

USER bura
VOLUME ["/data"]
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s CMD ["python", "-m", "bot", "--healthcheck"]
CMD ["python", "-m", "bot"]
