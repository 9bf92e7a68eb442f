"""resume imports: what an import could not place for sure, and a PDF's pages as pictures, kept for
the editor until dismissed

Revision ID: c3e5a7b9d1f2
Revises: b2d4f6a8c0e1
Create Date: 2026-11-27 19:20:00.000000

"""
from alembic import op
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql


# revision identifiers, used by Alembic.
revision = 'c3e5a7b9d1f2'
down_revision = 'b2d4f6a8c0e1'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('resume_imports',
    sa.Column('resume_id', sa.String(length=24), nullable=False),
    sa.Column('source', sa.String(length=8), nullable=False),
    sa.Column('file_name', sa.String(length=255), nullable=False),
    sa.Column('report', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['resume_id'], ['resumes.id'], name=op.f('fk_resume_imports_resume_id_resumes'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('resume_id', name=op.f('pk_resume_imports'))
    )
    op.create_table('resume_import_pages',
    sa.Column('resume_id', sa.String(length=24), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('png', sa.LargeBinary(), nullable=False),
    sa.ForeignKeyConstraint(['resume_id'], ['resume_imports.resume_id'], name=op.f('fk_resume_import_pages_resume_id_resume_imports'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('resume_id', 'number', name=op.f('pk_resume_import_pages'))
    )


def downgrade():
    op.drop_table('resume_import_pages')
    op.drop_table('resume_imports')
