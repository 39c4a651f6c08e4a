# The croupier poker room as an image (compose.yaml runs it as two room nodes on
# PostgreSQL and Redis). Built from this repository with pip and pyproject.toml's pinned
# dependencies; the C evaluator is compiled in a build stage, the room runs as a non-root
# user. Not built on the project's machines (no Docker engine there): see docs/architecture.md.
FROM python:3.11-slim AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md LICENSE ./
COPY src ./src
RUN python -m venv /opt/croupier \
    && /opt/croupier/bin/pip install --no-cache-dir --disable-pip-version-check .

FROM python:3.11-slim
RUN useradd --system --create-home --uid 10001 croupier
COPY --from=build /opt/croupier /opt/croupier
ENV PATH=/opt/croupier/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    CROUPIER_HOST=0.0.0.0 \
    CROUPIER_PORT=8000
USER croupier
WORKDIR /home/croupier
EXPOSE 8000
HEALTHCHECK --interval=5s --timeout=3s --start-period=60s --retries=5 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/health' % os.environ.get('CROUPIER_PORT', '8000'), timeout=3)"]
CMD ["croupier", "serve"]
