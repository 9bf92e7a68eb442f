"""resume versions and the trash

``resume_versions``: a resume's earlier states (title, template, content,
section visibility), newest found by ``(resume_id, created_at)``. Two partial
indexes over deleted resumes only: one user's trash in its order, and the
purge's look-up by age.

Revision ID: c1d2e3f4a5b6
Revises: 3f9c2a7d4e61
Create Date: 2026-11-26 08:00:00
"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql


revision = 'c1d2e3f4a5b6'
down_revision = '3f9c2a7d4e61'
branch_labels = None
depends_on = None

DELETED = sa.text('deleted_at IS NOT NULL')


def upgrade():
    op.create_table('resume_versions',
    sa.Column('id', sa.String(length=24), nullable=False),
    sa.Column('resume_id', sa.String(length=24), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('title', sa.String(length=200), nullable=False),
    sa.Column('template_id', sa.String(length=24), nullable=False),
    sa.Column('content_json', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=False),
    sa.Column('sections_visibility', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=False),
    sa.Column('cause', sa.String(length=16), nullable=False),
    sa.ForeignKeyConstraint(['resume_id'], ['resumes.id'], name=op.f('fk_resume_versions_resume_id_resumes'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['template_id'], ['templates.id'], name=op.f('fk_resume_versions_template_id_templates')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_resume_versions'))
    )
    with op.batch_alter_table('resume_versions', schema=None) as batch_op:
        batch_op.create_index('ix_resume_versions_resume_created', ['resume_id', 'created_at'], unique=False)

    with op.batch_alter_table('resumes', schema=None) as batch_op:
        batch_op.create_index('ix_resumes_deleted_at', ['deleted_at'], unique=False,
                              postgresql_where=DELETED, sqlite_where=DELETED)
        batch_op.create_index('ix_resumes_user_trash_order', ['user_id', 'deleted_at', 'id'], unique=False,
                              postgresql_where=DELETED, sqlite_where=DELETED)


def downgrade():
    with op.batch_alter_table('resumes', schema=None) as batch_op:
        batch_op.drop_index('ix_resumes_user_trash_order', postgresql_where=DELETED, sqlite_where=DELETED)
        batch_op.drop_index('ix_resumes_deleted_at', postgresql_where=DELETED, sqlite_where=DELETED)

    with op.batch_alter_table('resume_versions', schema=None) as batch_op:
        batch_op.drop_index('ix_resume_versions_resume_created')

    op.drop_table('resume_versions')
