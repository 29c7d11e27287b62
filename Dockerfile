FROM python:3.11-slim
WORKDIR /srv/ostraca
COPY pyproject.toml README.md alembic.ini ./
COPY app ./app
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
RUN pip install --no-cache-dir -e . \
    && useradd --system --home-dir /srv/ostraca ostraca \
    && mkdir -p /srv/ostraca/var && chown ostraca /srv/ostraca/var
USER ostraca
ENV ENVIRONMENT=production DATA_DIR=/srv/ostraca/var
EXPOSE 8000
CMD ["ostraca", "serve", "--host", "0.0.0.0", "--port", "8000", "--no-jobs"]
